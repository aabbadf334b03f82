"""The verifiable shuffle (feltro-fair/1): the construction, the dealer, and every tampering
the Python verifier must catch (tests/web/test_fair_verify.py runs the browser's on the same
cases)."""

from __future__ import annotations

import ast
import copy
import hashlib
import hmac
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from fairkit import TAMPERINGS, every_single_change, forged_night, tampered
from feltro.cards import Deck
from feltro.errors import SeriesError
from feltro.fairdeal import FairDealer, dealt_cards, sample_night
from feltro.fairness import (
    Check,
    FairnessFormatError,
    export_series,
    prepare_hand,
    proof_order,
    read_export,
    unrevealed,
    verify_hands,
)
from feltro.fairness_scheme import (
    board_indices,
    commitment,
    contribution_commitment,
    deck_order,
    deck_seed,
    fingerprint,
    genesis,
    hkdf_sha256,
    hole_indices,
)
from feltro.series import Series, SeriesConfig

SRC = Path(__file__).resolve().parents[1] / "src" / "feltro"


@pytest.fixture(scope="module")
def night() -> dict[str, Any]:
    return sample_night(6)[0].export()


def _verdict(export: dict[str, Any]) -> tuple[Check | None, int | None]:
    try:
        table, proofs, claimed = read_export(export)
    except FairnessFormatError:
        return Check.FORMAT, None
    verdict = verify_hands(table, proofs, claimed, export=True)
    return (None, None) if verdict.failure is None else (verdict.failure.check,
                                                         verdict.failure.hand)


# --- the construction --------------------------------------------------------------------------


def test_the_deck_is_a_permutation_fixed_by_the_inputs() -> None:
    secret = bytes(range(32))
    seed = deck_seed(secret, "t", 1, {2: b"x"})
    order = deck_order(seed)
    assert sorted(order) == list(range(52))
    assert deck_order(deck_seed(secret, "t", 1, {2: b"x"})) == order
    for other in (deck_seed(secret, "t", 1, {2: b"y"}), deck_seed(secret, "t", 2, {2: b"x"}),
                  deck_seed(secret, "u", 1, {2: b"x"}), deck_seed(secret, "t", 1, {3: b"x"}),
                  deck_seed(bytes(32), "t", 1, {2: b"x"})):
        assert deck_order(other) != order


def test_contributions_are_taken_in_seat_order() -> None:
    secret = bytes(32)
    assert deck_seed(secret, "t", 1, {5: b"a", 2: b"b"}) == deck_seed(secret, "t", 1,
                                                                      {2: b"b", 5: b"a"})


def test_bad_inputs_are_refused() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        deck_seed(b"short", "t", 1, {})
    with pytest.raises(ValueError, match=r"1\.\.64 bytes"):
        deck_seed(bytes(32), "t", 1, {1: bytes(65)})
    with pytest.raises(ValueError, match=r"1\.\.64 bytes"):
        deck_seed(bytes(32), "t", 1, {1: b""})
    with pytest.raises(ValueError, match="seat"):
        deck_seed(bytes(32), "t", 1, {0: b"a"})


def test_the_first_card_is_uniform() -> None:
    # 10 400 decks: each card should come first 200 times. A chi-square with 51 degrees of
    # freedom above 100 has probability below 1e-4; the seeds are fixed, so this never flakes.
    counts = Counter(deck_order(hashlib.sha256(i.to_bytes(4, "big")).digest())[0]
                     for i in range(10_400))
    chi2 = sum((counts[c] - 200) ** 2 / 200 for c in range(52))
    assert chi2 < 100, chi2


def test_rejection_sampling_skips_biased_bytes() -> None:
    # A seed whose first stream byte is >= 208 (= 256 - 256 % 52): the first swap must use the
    # next byte. Find one among fixed seeds, then check the swap against a hand computation.
    def block(seed: bytes) -> bytes:
        tag = b"feltro-fair/1 stream"
        msg = len(tag).to_bytes(4, "big") + tag + (4).to_bytes(4, "big") + bytes(4)
        return hmac.new(seed, msg, hashlib.sha256).digest()

    seed = next(s for s in (hashlib.sha256(bytes([i])).digest() for i in range(256))
                if block(s)[0] >= 208)
    data = block(seed)
    j = next(b for b in data if b < 208) % 52
    deck = list(range(52))
    deck[51], deck[j] = deck[j], deck[51]
    assert deck_order(seed)[51] == deck[51]


def _imports(name: str) -> set[str]:
    tree = ast.parse((SRC / name).read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree)
                if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module}
    return imported


def test_the_fairness_modules_are_pure() -> None:
    # The standard library, and of feltro only the card spelling (itself pure) and each other.
    stdlib = {"__future__", "hashlib", "hmac", "collections.abc", "dataclasses", "enum",
              "types", "typing"}
    assert _imports("fairness_scheme.py") <= stdlib
    assert _imports("fairness.py") <= stdlib | {"feltro.cards", "feltro.fairness_scheme"}
    assert _imports("cards.py") <= stdlib | {"operator", "re", "random", "feltro.errors"}


def test_fingerprint_uses_the_first_40_bits() -> None:
    assert fingerprint(bytes(32)) == "0000-0000"
    assert fingerprint(b"\xff" * 32) == "ZZZZ-ZZZZ"
    assert fingerprint(bytes([0, 0, 0, 0, 1]) + bytes(27)) == "0000-0001"


def test_deck_indices_follow_the_deal_order__D4_D5() -> None:
    # Deck.for_deal puts hole cards, burns and board exactly where the engine deals them.
    deck = Deck.for_deal(["AsKs", "QhJh", "2c3c"], "7d8d9dTdJd")
    assert [str(deck[i]) for i in hole_indices(3, 1)] == ["Qh", "Jh"]
    assert [str(deck[i]) for i in board_indices(3)] == ["7d", "8d", "9d", "Td", "Jd"]


# --- the dealer and the series ---------------------------------------------------------------


def test_a_series_deals_the_committed_decks() -> None:
    dealer, series = sample_night(5, players=3)
    for summary in series.summaries:
        proof = dealer.proof(summary.number, reveal=True)
        order = proof_order(proof)
        assert all(order[i] == c for i, c in dealt_cards(summary.hand))
        assert len(dealt_cards(summary.hand)) >= 6
        assert commitment(proof.secret or b"") == proof.commitment


def test_the_default_series_is_unchanged() -> None:
    config = SeriesConfig.with_players(3, max_hands=1)
    series = Series(config, 42)
    hand = series.next_hand()
    assert hand is not None
    import random
    expected = Deck.shuffled(random.Random(series.hand_seed))
    assert [int(c) for c in hand.hole(0)] == [int(expected[0]), int(expected[3])]


def test_contributions_close_at_the_deal() -> None:
    dealer = FairDealer("t", secret_source=bytes)
    with pytest.raises(SeriesError, match="no commitment"):
        dealer.contribute(1, 1, b"early")
    dealer.commit(1)
    dealer.contribute(1, 1, b"ok")
    with pytest.raises(ValueError, match="already contributed"):
        dealer.contribute(1, 1, b"again")
    with pytest.raises(ValueError, match=r"1\.\.64"):
        dealer.contribute(1, 2, bytes(65))
    dealer.deck(1)
    with pytest.raises(SeriesError, match="closed"):
        dealer.contribute(1, 2, b"late")
    with pytest.raises(SeriesError, match="deals hand 2 next"):
        dealer.deck(3)


def test_the_commitment_does_not_change_before_the_deal() -> None:
    dealer = FairDealer("t")
    first = dealer.commit(1)
    assert dealer.commit(1) == first
    dealer.contribute(1, 4, b"r")
    dealer.deck(1)
    assert dealer.proof(1).commitment == first
    assert dealer.proof(1).secret is None
    assert dealer.proof(1, reveal=True).secret is not None


def test_unrevealed_exports_say_the_secret_is_missing() -> None:
    dealer, _ = sample_night(2)
    table, proofs, claimed = read_export(dealer.export(reveal=False))
    verdict = verify_hands(table, proofs, claimed)
    assert verdict.failure is not None
    assert (verdict.failure.check, verdict.failure.hand) == (Check.SECRET, 1)


def test_a_night_verifies(night: dict[str, Any]) -> None:
    assert _verdict(night) == (None, None)
    assert _verdict(json.loads(json.dumps(night))) == (None, None)
    table, proofs, claimed = read_export(night)
    assert verify_hands(table, proofs).fingerprint == claimed


@pytest.mark.parametrize("name", sorted(TAMPERINGS))
def test_every_tampering_is_detected(night: dict[str, Any], name: str) -> None:
    _change, check, hand = TAMPERINGS[name]
    assert _verdict(tampered(night, name)) == (check, hand)


def test_the_proof_round_trips(night: dict[str, Any]) -> None:
    table, proofs, _ = read_export(night)
    assert export_series(table, proofs) == night


def test_a_prepared_hand_hides_its_secret() -> None:
    proof = prepare_hand(bytes(32), "t", 1, {}, genesis("t"))
    public = unrevealed(proof)
    assert public.secret is None
    assert public.seed is None
    with pytest.raises(ValueError, match="revealed"):
        proof_order(public)


def test_hkdf_is_rfc_5869() -> None:
    # RFC 5869, test case 3 (no salt, no info): the salts come from standard HKDF-SHA256.
    okm = hkdf_sha256(bytes([0x0B]) * 22, b"", 42)
    assert okm.hex() == ("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d"
                         "9d201395faa4b61a96c8")


def test_sealed_contributions_bind_every_seat() -> None:
    dealer = FairDealer("t", secret_source=bytes)
    dealer.commit(1)
    dealer.seal(1, 1, contribution_commitment("t", 1, 1, b"one"))
    dealer.seal(1, 2, contribution_commitment("t", 1, 2, b"two"))
    with pytest.raises(ValueError, match="already sealed"):
        dealer.seal(1, 2, bytes(32))
    with pytest.raises(ValueError, match="not the one it sealed"):
        dealer.contribute(1, 1, b"changed my mind")
    with pytest.raises(ValueError, match="not the one it sealed"):
        dealer.contribute(1, 3, b"never sealed")
    dealer.contribute(1, 1, b"one")
    with pytest.raises(SeriesError, match="seals are closed"):
        dealer.seal(1, 3, bytes(32))
    dealer.deck(1)  # seat 2 withheld its contribution: the hand is dealt without it
    proof = dealer.proof(1, reveal=True)
    assert dict(proof.contributions) == {1: b"one"}
    assert set(proof.sealed) == {1, 2}
    assert verify_hands("t", [proof]).ok


def test_malformed_exports_never_raise(night: dict[str, Any]) -> None:
    # 600 random single-field corruptions (fixed seed): each one either reads as a format
    # error or gets a verdict; nothing else escapes (feltro verify never ends in a traceback).
    import random

    values: list[Any] = [None, -1, 0, 300, 10**30, "zz", "", [], {}, "As", 3.5, True,
                         "00" * 32, "00" * 33, [1], [{"seat": 1}], {"a": 1}]

    def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        found = [prefix]
        if isinstance(value, dict):
            for key, item in value.items():
                found += paths(item, (*prefix, key))
        elif isinstance(value, list):
            for index, item in enumerate(value[:3]):
                found += paths(item, (*prefix, index))
        return found

    every = [p for p in paths(night) if p]
    rng = random.Random(12)
    verdicts = Counter()
    for _ in range(600):
        changed = copy.deepcopy(night)
        path = rng.choice(every)
        target = changed
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = rng.choice(values)
        try:
            verdict = verify_hands(*read_export(changed))
        except FairnessFormatError:
            verdicts["format"] += 1
        else:
            verdicts[verdict.failure.check.value if verdict.failure else "ok"] += 1
    assert verdicts["format"] > 50
    assert len(verdicts) > 5


def test_every_single_published_value_is_bound(night: dict[str, Any]) -> None:
    changes = every_single_change(night)
    assert len(changes) > 100
    for what, changed in changes:
        try:
            verdict = verify_hands(*read_export(changed))
        except FairnessFormatError:
            continue
        assert verdict.failure is not None, what


@pytest.mark.parametrize(("kind", "why"), [("outsider", "not_in_hand"), ("unnamed", "withheld")])
def test_a_consistent_forgery_of_who_contributed_is_rejected_D1(kind: str, why: str) -> None:
    """Every hash recomputed by the forger: a value from seat 200, which was not dealt in, or
    a sealed seat's missing value not named as withheld, fails on the hand's seats."""
    table, proofs, claimed = read_export(forged_night(kind))
    verdict = verify_hands(table, proofs, claimed, export=True)
    assert verdict.failure is not None
    assert (verdict.failure.check, verdict.failure.hand, verdict.failure.why) == \
        (Check.CONTRIBUTION, 2, why)
    honest = forged_night("unnamed")
    honest["hands"][1]["withheld"] = [1]  # named: the night verifies
    assert verify_hands(*read_export(honest), export=True).ok
