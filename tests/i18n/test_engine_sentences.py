"""The rules engine cannot call gettext (it imports nothing from Django), so every sentence it
says must be one the extractor finds: a string literal in ``Says(...)`` or in a finding's template
argument, or a template marked with ``N_`` where an expression chooses it. This reads the engine's
source and refuses any other template, so a new sentence cannot slip past the translators."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.utils import translation

import scorekeeper.rules
from scorekeeper.rules.text import Says, join_names, joined
from scorekeeper.tables.i18n import say

RULES_DIR = Path(scorekeeper.rules.__file__).parent
MODULES = sorted(RULES_DIR.rglob("*.py"))

#: calls that take an English template, and the positions of their template arguments
TEMPLATE_ARGUMENTS = {"Says": (0,), "finding": (3,), "_about": (1, 2)}
#: parameters that only pass on a template their callers marked (the calls above are checked)
PASSED_ON = {("finding", "template"), ("_about", "partnership"), ("_about", "player")}
#: templates with no words in them, only placeholders: nothing to translate
NO_WORDS = {"NOTHING", "_ONE_NAME", "_WHERE_WHAT", "_SCORED", "_SUM", "_NUMBER", "_SIDE_SUM"}
#: a template built of placeholders only, for sentences said one after another
BUILT_OF_PLACEHOLDERS = {("joined", "template"), ("listed", "template")}


def _name(call: ast.Call) -> str:
    return getattr(call.func, "id", getattr(call.func, "attr", ""))


class Scan:
    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.dicts = {
            target.id: node.value
            for node in tree.body
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        self.problems: list[str] = []

    def marked(self, node: ast.expr, function: ast.FunctionDef | None) -> bool:
        if isinstance(node, ast.Constant):
            return isinstance(node.value, str)
        if isinstance(node, ast.Call):
            return _name(node) == "N_"
        if isinstance(node, ast.IfExp):
            return self.marked(node.body, function) and self.marked(node.orelse, function)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            table = self.dicts.get(node.value.id) or _imported_dict(node.value.id)
            return table is not None and all(self.marked(v, None) for v in table.values)
        if isinstance(node, ast.Name):
            return self._marked_name(node.id, function)
        return False

    def _marked_name(self, name: str, function: ast.FunctionDef | None) -> bool:
        if name in NO_WORDS:
            return True
        if function is None:
            return False
        if (function.name, name) in PASSED_ON | BUILT_OF_PLACEHOLDERS:
            return True
        assigned = [
            node.value
            for node in ast.walk(function)
            if isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
        ]
        return bool(assigned) and all(self.marked(value, function) for value in assigned)

    def check(self) -> list[str]:
        for node in ast.walk(self.tree):
            if not isinstance(node, ast.Call) or _name(node) not in TEMPLATE_ARGUMENTS:
                continue
            function = _enclosing(self.tree, node)
            for position in TEMPLATE_ARGUMENTS[_name(node)]:
                argument = node.args[position] if position < len(node.args) else None
                if argument is not None and not self.marked(argument, function):
                    self.problems.append(f"line {node.lineno}: {ast.unparse(argument)}")
        return sorted(set(self.problems))


def _enclosing(tree: ast.Module, target: ast.AST) -> ast.FunctionDef | None:
    """The innermost function the call is in."""
    found = None
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef) and any(n is target for n in ast.walk(function)):
            found = function
    return found


def _imported_dict(name: str) -> ast.Dict | None:
    """A table of templates defined in another engine module (GAME_NAMES in match.py)."""
    for path in MODULES:
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Dict)
                and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
            ):
                return node.value
    return None


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_every_sentence_the_engine_says_is_marked_for_the_translators(path: Path) -> None:
    problems = Scan(ast.parse(path.read_text(encoding="utf-8"))).check()

    assert problems == [], f"{path.name}: templates the extractor cannot see: {problems}"


def test_the_scan_would_notice_a_template_built_in_code() -> None:
    source = (
        "def f(side, n):\n"
        "    Says(f'{side} scores')\n"
        "    finding('code', n, None, 'a' + side)\n"
        "    template = side + ' wins'\n"
        "    Says(template)\n"
    )

    assert len(Scan(ast.parse(source)).check()) == 3


def test_the_scan_accepts_a_template_marked_where_an_expression_chooses_it() -> None:
    source = (
        "def f(side, n):\n"
        "    template = N_('{side} win') if ' & ' in side else N_('{side} wins')\n"
        "    Says(template, side=side)\n"
        "    finding('code', n, None, 'literal {x}', x=1)\n"
    )

    assert Scan(ast.parse(source)).check() == []


def test_glue_between_names_is_translated_too() -> None:
    with translation.override("es"):
        assert say(join_names(["Ana", "Bo", "Cy"])) == "Ana, Bo y Cy"
    with translation.override("cs"):
        assert say(join_names(["Ana", "Bo"])) == "Ana a Bo"
    assert str(join_names(["Ana", "Bo", "Cy"])) == "Ana, Bo and Cy"


def test_sentences_said_as_one_are_each_translated() -> None:
    lines = [Says("{player} dominoed.", player="Bo"), Says("Round {number}.", number=2)]

    with translation.override("pl"):
        assert say(joined(lines)) == "Bo: domino! Runda 2."


def test_a_sentence_that_says_nothing_stays_empty_in_every_language() -> None:
    with translation.override("es"):
        assert say(Says("")) == ""
