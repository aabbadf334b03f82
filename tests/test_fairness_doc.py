"""docs/fairness.md is the specification: its test vectors match feltro, and its "page of code"
alone (run here as written) deals the same decks as feltro. The browser's implementation is
checked against the same vectors in tests/web/test_fair_verify.py."""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from feltro.fairness import card_text, prepare_hand
from feltro.fairness_scheme import (
    chain_link,
    commitment,
    contribution_commitment,
    deal_commitment,
    deck_order,
    deck_seed,
    fingerprint,
    genesis,
    message,
    position_commitments,
    position_salts,
)

DOC = Path(__file__).resolve().parents[1] / "docs" / "fairness.md"


def fenced(heading: str, language: str) -> str:
    """The first ```language block after the line *heading* of the document."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"\n{heading}\n")
    match = re.compile(rf"```{language}\n(.*?)```", re.S).search(text, start)
    assert match is not None, f"no {language} block after {heading}"
    return match.group(1)


def vectors() -> dict[str, Any]:
    return tomllib.loads(fenced("## Test vectors", "toml"))


def reference() -> SimpleNamespace:
    namespace: dict[str, Any] = {}
    exec(compile(fenced("### A page of code", "python"), str(DOC), "exec"), namespace)
    return SimpleNamespace(**namespace)


def test_the_vectors_match_feltro() -> None:
    v = vectors()
    secret = bytes.fromhex(v["secret"])
    contributions = {c["seat"]: bytes.fromhex(c["value"]) for c in v["contributions"]}
    table, hand = v["table"], v["hand"]
    assert message("commit", secret).hex() == v["commit_message"]
    assert commitment(secret).hex() == v["commitment"]
    assert contribution_commitment(table, hand, 2, contributions[2]).hex() == v["sealed_seat_2"]
    seed = deck_seed(secret, table, hand, contributions)
    assert seed.hex() == v["seed"]
    order = deck_order(seed)
    assert " ".join(card_text(c) for c in order) == v["deck"]
    salts = position_salts(seed)
    assert (salts[0].hex(), salts[51].hex()) == (v["salt_0"], v["salt_51"])
    positions = position_commitments(seed, order)
    assert positions[0].hex() == v["position_0"]
    assert deal_commitment(positions).hex() == v["deal"]
    assert genesis(table).hex() == v["genesis"]
    link = chain_link(genesis(table), hand, commitment(secret), contributions,
                      deal_commitment(positions))
    assert link.hex() == v["chain"]
    assert fingerprint(link) == v["fingerprint"]


def test_the_page_of_code_gives_the_vectors() -> None:
    v, ref = vectors(), reference()
    secret = bytes.fromhex(v["secret"])
    contributions = {c["seat"]: bytes.fromhex(c["value"]) for c in v["contributions"]}
    assert ref.msg("seed", v["table"].encode(), ref.u(v["hand"], 8),
                   *ref.pairs(contributions)).hex() == v["seed_message"]
    seed = ref.seed(secret, v["table"], v["hand"], contributions)
    assert seed.hex() == v["seed"]
    assert ref.mac(seed, ref.msg("stream", ref.u(0, 4))).hex() == v["stream_block_0"]
    assert " ".join(card_text(c) for c in ref.deck(seed)) == v["deck"]
    assert ref.positions(seed)[0].hex() == v["position_0"]
    link = ref.link(ref.genesis(v["table"]), v["hand"], ref.commitment(secret), contributions,
                    ref.deal(ref.positions(seed)))
    assert (link.hex(), ref.fingerprint(link)) == (v["chain"], v["fingerprint"])
    assert ref.sealed(v["table"], v["hand"], 2, contributions[2]).hex() == v["sealed_seat_2"]


@pytest.mark.parametrize("trial", range(40))
def test_the_page_of_code_deals_feltros_decks(trial: int) -> None:
    ref = reference()
    secret = os.urandom(32)
    contributions = {seat: os.urandom(1 + trial % 64) for seat in range(1, 2 + trial % 10)}
    table = f"table {trial} ✓"
    proof = prepare_hand(secret, table, trial + 1, contributions, genesis(table))
    assert proof.seed == ref.seed(secret, table, trial + 1, contributions)
    assert list(deck_order(proof.seed)) == ref.deck(proof.seed)
    assert list(proof.positions) == ref.positions(proof.seed)
    assert proof.chain == ref.link(ref.genesis(table), trial + 1, ref.commitment(secret),
                                   contributions, ref.deal(proof.positions))


def test_a_wrong_vector_is_noticed() -> None:
    # The doc checks can fail: a deck off by one swap is not the documented deck.
    v = vectors()
    cards = v["deck"].split()
    cards[0], cards[1] = cards[1], cards[0]
    seed = deck_seed(bytes.fromhex(v["secret"]), v["table"], v["hand"],
                     {c["seat"]: bytes.fromhex(c["value"]) for c in v["contributions"]})
    assert " ".join(card_text(c) for c in deck_order(seed)) != " ".join(cards)


def test_a_client_checks_a_card_it_sees() -> None:
    from feltro.fairness import card_id
    from feltro.fairness_scheme import card_matches

    v = vectors()
    top = card_id(v["deck"].split()[0])
    position, salt = bytes.fromhex(v["position_0"]), bytes.fromhex(v["salt_0"])
    assert card_matches(position, salt, 0, top)
    assert not card_matches(position, salt, 0, (top + 1) % 52)
    assert not card_matches(position, salt, 1, top)
    assert not card_matches(position, bytes(32), 0, top)


def roster_vectors() -> dict[str, Any]:
    return tomllib.loads(fenced("### Who was dealt in, and where each card comes from", "toml"))


def test_the_dealing_position_vectors_match_feltro_D4_D5() -> None:
    from feltro.fairness_scheme import board_indices, hole_indices

    v = roster_vectors()
    players = v["players"]
    assert players == len(v["seats"])
    assert v["seats"][-1] == v["button"]
    for position, seat in enumerate(v["seats"]):
        assert list(hole_indices(players, position)) == v["hole"][str(seat)]
    assert list(board_indices(players)) == v["board"]
    dealt = {i for pair in v["hole"].values() for i in pair} | set(v["board"])
    assert sorted(set(range(2 * players + 8)) - dealt) == v["burns"]
    assert sorted(set(v["sealed"]) - set(v["contributions"])) == v["withheld"]
