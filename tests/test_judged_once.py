"""Legality is judged once, by the engine; a seat nobody decides for plays one written rule.

Three checks over the product, each with a negative control that runs it on the code it
replaced (the server's ``precheck`` and ``TableGame``, the phone's own all-in and bet tests):

* **The server judges no rule.** No module of ``feltro.server`` defines or calls a
  ``precheck``, builds a rule's refusal itself (``Refusal("B2", ...)``), asks whether an action
  is legal (``action in legal``) or reads the legal actions' numbers to decide something: only
  ``views.py`` reads them, to send them as they are. The engine's refusal is passed through.
* **The phone reads the legal actions it was sent.** The action panel of ``play.js`` labels and
  offers its buttons from ``you.legal`` only: it reads no chip count (a stack, the current bet,
  the pot) to work out whether a call is all-in, whether a raise is a bet, or a pot size.
* **Check, else fold is written once** (:func:`feltro.bots.check_or_fold`): a bot's refused
  answer, a timeout, an away seat, the learning environment's refused action and the end of a
  series all play it. The bots' own strategies may still choose to check or fold.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "feltro"
SERVER = SRC / "server"
PLAY_JS = SERVER / "static" / "js" / "play.js"

LEGAL_NUMBERS = frozenset({"can_check", "can_raise", "call_amount", "min_raise_to",
                           "max_raise_to", "refusal_details", "passive"})
"""What a :class:`~feltro.legal.LegalActions` says; reading it is judging, except to send it."""
SENDS_LEGAL = frozenset({"views.py"})
SERVER_RULES = {"D1": "server/fairplay.py"}
"""Rules no engine judges, each judged once in the server module named: the devices' seals and
values of the verifiable shuffle (D1) are refused or taken by the fair dealer alone."""


# --- the server judges no rule ------------------------------------------------------------------


def server_judgements(sources: dict[str, str]) -> list[str]:
    """``file:line what`` for every place in *sources* (server modules) that judges a rule."""
    found = []
    for name, text in sorted(sources.items()):
        for node in ast.walk(ast.parse(text)):
            what = _judgement(node, name)
            if what is not None:
                found.append((name, getattr(node, "lineno", 0), what))
    return [f"{name}:{line} {what}" for name, line, what in sorted(found)]


def _judgement(node: ast.AST, name: str) -> str | None:
    if isinstance(node, ast.FunctionDef) and node.name == "precheck":
        return "defines precheck"
    if isinstance(node, ast.Call):
        callee = node.func
        called = callee.id if isinstance(callee, ast.Name) else (
            callee.attr if isinstance(callee, ast.Attribute) else "")
        if called == "precheck":
            return "calls precheck"
        if (called == "Refusal" and node.args and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
                and SERVER_RULES.get(node.args[0].value) != name):
            return f"builds a refusal of rule {node.args[0].value}"
    if (isinstance(node, ast.Compare)
            and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops)
            and any(_names_legal(c) for c in node.comparators)):
        return "asks whether an action is legal"
    if (isinstance(node, ast.Attribute) and node.attr in LEGAL_NUMBERS
            and Path(name).name not in SENDS_LEGAL):
        return f"reads the legal actions' {node.attr}"
    return None


def _names_legal(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id == "legal") or (
        isinstance(node, ast.Attribute) and node.attr == "legal")


def _server_sources() -> dict[str, str]:
    return {str(path.relative_to(SRC)): path.read_text(encoding="utf-8")
            for path in sorted(SERVER.rglob("*.py"))}


def test_the_server_judges_no_rule() -> None:
    sources = _server_sources()
    assert "server/live_table.py" in sources
    assert server_judgements(sources) == []


OLD_MODEL = '''
def precheck(action: Action, legal: LegalActions, order: Sequence[int]) -> None:
    details = legal.refusal_details
    if action == CHECK and not legal.can_check:
        refusal = details.get("check") or Refusal("B3", "owes", {"owed": legal.call_amount})
    elif isinstance(action, Raise) and legal.min_raise_to is None:
        refusal = details.get("raise") or Refusal("B7", "no-chips", {})
'''
OLD_GAME = '''
class TableGame:
    def act(self, seat, action_id, hand_no, turn, action, now):
        to_act = series.to_act
        if seat != to_act:
            wait = Refusal("B2", "not-your-turn", {"seat": seat, "to_act_seat": to_act or 0})
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, refusal_words(wait), refusal=wait)
        precheck(action, hand.legal, order)

    def bot_act(self, turn, action, now):
        if action is None or action not in turn.legal:
            action = CHECK if turn.legal.can_check else FOLD
'''


def test_the_server_check_catches_the_old_precheck() -> None:
    found = server_judgements({"server/model.py": OLD_MODEL, "server/game.py": OLD_GAME})
    assert found == [
        "server/game.py:6 builds a refusal of rule B2",
        "server/game.py:8 calls precheck",
        "server/game.py:11 asks whether an action is legal",
        "server/game.py:12 reads the legal actions' can_check",
        "server/model.py:2 defines precheck",
        "server/model.py:3 reads the legal actions' refusal_details",
        "server/model.py:4 reads the legal actions' can_check",
        "server/model.py:5 builds a refusal of rule B3",
        "server/model.py:5 reads the legal actions' call_amount",
        "server/model.py:6 reads the legal actions' min_raise_to",
        "server/model.py:7 builds a refusal of rule B7",
    ]


# --- the phone reads the legal actions it was sent ------------------------------------------------

CHIP_COUNTS = re.compile(r"(?<!legal)\.(stack|current_bet|pot_total|bets?|committed)\b|seatOf\(")
"""A chip count of the table, or the receiver's seat (its stack, its bet)."""


def action_panel(script: str) -> str:
    """The action section of ``play.js`` (from ``// --- actions`` to the next section)."""
    start = script.index("// --- actions")
    end = script.index("// --- ", start + 10)
    return script[start:end]


def chip_reads(panel: str) -> list[str]:
    """``line: text`` of every line of *panel* that reads a chip count."""
    return [f"{n}: {line.strip()}" for n, line in enumerate(panel.splitlines(), 1)
            if CHIP_COUNTS.search(line)]


def test_the_phone_offers_its_actions_from_the_legal_block() -> None:
    panel = action_panel(PLAY_JS.read_text(encoding="utf-8"))
    for fact in ("legal.call_all_in", "legal.bet", "legal.sizes"):
        assert fact in panel
    assert chip_reads(panel) == []


OLD_PANEL = '''// --- actions ----
function quickSizes(legal, table, you) {
  const range = legal.raise;
  const seat = seatOf(table, you.seat);
  const afterCall = hand.pot_total + legal.call;
    const allIn = legal.call >= (seat.stack ?? Infinity);
    const isBet = table.hand.current_bet === 0;
}
// --- announcements ----
'''


def test_the_phone_check_catches_the_old_panel() -> None:
    assert [line.split(":")[0] for line in chip_reads(action_panel(OLD_PANEL))] == [
        "4", "5", "6", "7"]


# --- check, else fold, once -----------------------------------------------------------------------

STRATEGIES = "bots/"
"""The bots' own strategies: checking or folding there is a decision, not the fallback."""
THE_RULE = "bots/__init__.py"


def check_else_fold_sites(sources: dict[str, str]) -> list[str]:
    """``file:line`` of every ``CHECK if <...>.can_check else FOLD`` outside the strategies."""
    found = []
    for name, text in sorted(sources.items()):
        if name.startswith(STRATEGIES) and name != THE_RULE:
            continue
        for node in ast.walk(ast.parse(text)):
            if (isinstance(node, ast.IfExp) and isinstance(node.body, ast.Name)
                    and node.body.id == "CHECK" and isinstance(node.orelse, ast.Name)
                    and node.orelse.id == "FOLD"):
                found.append(f"{name}:{node.lineno}")
    return found


def test_check_else_fold_is_written_once() -> None:
    sources = {str(p.relative_to(SRC)): p.read_text(encoding="utf-8")
               for p in sorted(SRC.rglob("*.py"))}
    assert [site.split(":")[0] for site in check_else_fold_sites(sources)] == [THE_RULE]


def test_the_fold_check_sees_the_old_copies() -> None:
    old = {
        "server/game.py": "def _auto_act(self, seat):\n"
                          "    self._play(CHECK if hand.legal.can_check else FOLD, seat)\n",
        "session.py": "action = CHECK if legal.can_check else FOLD\n",
        "bots/rules.py": "return CHECK if legal.can_check else FOLD\n",  # a strategy: fine
    }
    assert check_else_fold_sites(old) == ["server/game.py:2", "session.py:1"]


def test_a_server_rule_is_judged_only_where_it_belongs() -> None:
    # D1 is the fair dealer's to judge; anywhere else in the server it is a second judge.
    built = 'from feltro.errors import Refusal\nREFUSED = Refusal("D1", "late", {})\n'
    assert server_judgements({"server/fairplay.py": built}) == []
    assert server_judgements({"server/room.py": built}) == [
        "server/room.py:2 builds a refusal of rule D1"]
