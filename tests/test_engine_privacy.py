"""Outside the hand engine nobody reads or writes its private fields.

The engine is the modules of one hand (``hand``, ``handstate``, ``betting``, ``rounds``,
``dealing``, ``showdown``, ``legal``, ``view``, ``config``, ``pots``). Everything else reads a
hand through :class:`~feltro.hand.Hand`'s public properties, or the read-only live state
(:attr:`Hand.state <feltro.hand.Hand.state>`); an ``obj._name`` where ``_name`` is a private
member of an engine class is a back door, and this test names it.
"""

from __future__ import annotations

import ast
from pathlib import Path

from feltro.config import HandConfig
from feltro.hand import Hand
from feltro.handstate import HandState
from feltro.legal import LegalActions

SOURCE = Path(__file__).resolve().parents[1] / "src" / "feltro"
ENGINE = {"hand", "handstate", "betting", "rounds", "dealing", "showdown", "legal", "view",
          "config", "pots"}


def private_members() -> set[str]:
    """The private attributes, slots, fields and methods of the engine's classes."""
    names: set[str] = set()
    for cls in (Hand, HandState, HandConfig, LegalActions):
        for klass in cls.__mro__[:-1]:
            names.update(vars(klass))
            names.update(getattr(klass, "__slots__", ()))
            names.update(getattr(klass, "__dataclass_fields__", {}))
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def back_doors(sources: dict[str, str], private: set[str]) -> list[str]:
    """``module:line obj._name`` for each private engine member used outside the engine."""
    found: list[str] = []
    for module, text in sorted(sources.items()):
        if module in ENGINE:
            continue
        for node in ast.walk(ast.parse(text)):
            if (isinstance(node, ast.Attribute) and node.attr in private
                    and not (isinstance(node.value, ast.Name)
                             and node.value.id in ("self", "cls"))):
                found.append(f"{module}:{node.lineno} {ast.unparse(node)}")
    return found


def _sources() -> dict[str, str]:
    return {str(path.relative_to(SOURCE).with_suffix("")): path.read_text(encoding="utf-8")
            for path in SOURCE.rglob("*.py")}


def test_no_module_outside_the_engine_uses_its_private_fields() -> None:
    sources = _sources()
    assert "env/game" in sources
    assert back_doors(sources, private_members()) == []


def test_the_check_sees_a_back_door() -> None:
    # Negative control: the reads and writes env/game.py and showdown.py made before the
    # engine had a state object and a read API, and a config's private plan.
    private = private_members()
    assert {"_state", "_plan", "_raise_info"} <= private
    sources = {
        "env/game": "def f(hand):\n    return hand._state.stacks\n",
        "history/site_replay": "def g(config):\n    return config._plan\n",
        "bots/basic": "def h(legal):\n    legal._raise_info = None\n",
        "betting": "def ok(config):\n    return config._plan\n",  # inside the engine: fine
        "env/aec": "class A:\n    def m(self):\n        return self._state\n",  # its own
    }
    assert back_doors(sources, private) == [
        "bots/basic:2 legal._raise_info",
        "env/game:2 hand._state",
        "history/site_replay:2 config._plan",
    ]
