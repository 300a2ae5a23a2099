"""Every refusal a user reads is translatable (issue 14.9): the AST check behind it.

A service, format, form or API view that refuses something raises a domain error (``DomainError``,
``NotFound``, ``Forbidden``, ``Conflict``, ``Unavailable``) or a ``ValidationError``; its text reaches the
organiser's page or the API body as it is. A string literal or an f-string there is English whatever the
visitor's language, and the catalogue check of ``test_translations_complete`` cannot see it (it only sees
strings that are marked). So: in every module of the apps, the message of such an error, and every text put
into a list or dict of ``errors``/``problems`` that becomes one, must come from ``gettext`` (placeholders as
``%(name)s``, filled after the translation).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.utils import translation

from league.errors import DomainError, Forbidden
from league.models import Team
from league.services.setup import tournament_create_from_preset
from league.services.teams import team_logo_set

ROOT = Path(__file__).resolve().parent.parent
APPS = ("league", "matches", "web", "config")
ERROR_CLASSES = {"DomainError", "NotFound", "Forbidden", "Conflict", "Unavailable", "ValidationError"}
TRANSLATORS = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext", "pgettext_lazy", "_lazy"}
# Names of the lists and dicts that collect messages before one error is raised with them.
COLLECTORS = ("errors", "problems")


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _has_words(text: str) -> bool:
    return any(character.isalpha() for character in text)


def _english(node: ast.AST | None) -> bool:
    """True when ``node`` builds text from a literal that no gettext call translated."""
    if node is None:
        return False
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and _has_words(node.value)
    if isinstance(node, ast.JoinedStr):
        return any(_english(part.value if isinstance(part, ast.FormattedValue) else part) for part in node.values)
    if isinstance(node, ast.Call):
        if _name(node.func) in TRANSLATORS:
            return False
        if _name(node.func) == "format" and isinstance(node.func, ast.Attribute):
            return _english(node.func.value)
        if _name(node.func) == "join":
            return any(_english(arg) for arg in node.args)
        return False
    if isinstance(node, ast.BinOp):
        # "…" % values: only the template is text; the values are data.
        return _english(node.left) if isinstance(node.op, ast.Mod) else _english(node.left) or _english(node.right)
    if isinstance(node, ast.Dict):
        return any(_english(value) for value in node.values)
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return any(_english(element) for element in node.elts)
    if isinstance(node, ast.IfExp):
        return _english(node.body) or _english(node.orelse)
    return False


def _collector(node: ast.AST) -> bool:
    """``errors``, ``errors[...]``, ``errors.setdefault(...)``: somewhere a refusal's messages are gathered."""
    if isinstance(node, ast.Subscript):
        return _collector(node.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "setdefault":
        return _collector(node.func.value)
    return any(word in _name(node).lower() for word in COLLECTORS)


def untranslated_messages(source: str) -> list[tuple[int, str]]:
    """(line, code) of each error message in ``source`` written as a literal instead of through gettext."""
    found = []
    for node in ast.walk(ast.parse(source)):
        texts: list[ast.AST | None] = []
        if isinstance(node, ast.Call) and _name(node.func) in ERROR_CLASSES:
            texts = [*node.args[:1], *(keyword.value for keyword in node.keywords if keyword.arg == "message")]
        elif isinstance(node, ast.Call) and _name(node.func) in ("append", "extend", "insert") and isinstance(
                node.func, ast.Attribute) and _collector(node.func.value):
            texts = list(node.args)
        elif isinstance(node, ast.Assign) and any(
                isinstance(target, ast.Subscript) and _collector(target) for target in node.targets):
            texts = [node.value]
        if any(_english(text) for text in texts):
            found.append((node.lineno, ast.unparse(node)[:100]))
    return sorted(found)


def _modules() -> list[Path]:
    return sorted(path for app in APPS for path in (ROOT / app).rglob("*.py") if "migrations" not in path.parts)


def test_error_messages_are_marked_for_translation():
    untranslated = [f"{path.relative_to(ROOT)}:{line}: {code}"
                    for path in _modules() for line, code in untranslated_messages(path.read_text())]
    assert not untranslated, (
        "error messages not marked for translation (use _(\"… %(name)s …\") % {…}):\n" + "\n".join(untranslated))


def test_the_check_sees_untranslated_messages():
    source = '''
raise DomainError("Unknown team.")
raise Conflict(f"{team} is playing now.", reason="playing")
raise DomainError({"seed": [f"Seed {seed} is taken."]})
raise forms.ValidationError("Give a name." + suffix)
errors.setdefault("home", []).append(f"The {label} is required.")
errors["winner"] = ["Say who went through."]
problems.append("unknown pool %s" % name)
raise DomainError(_("Unknown team %(code)s.") % {"code": f"{code!r}"})
raise Forbidden(EDIT_DENIED_MESSAGE)
raise DomainError({"seed": [_("Seed %(seed)s is taken.") % {"seed": seed}]})
errors.append(f"{_('Home')}: {message}")
errors.append(_("Line %(line)s: %(problems)s") % {"line": 3, "problems": "; ".join(problems)})
raise DomainError(errors)
'''
    assert [line for line, _code in untranslated_messages(source)] == [2, 3, 4, 5, 6, 7, 8]


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "expected"), [
    ("en", "The nations play under their flags: they have no logo to change."),
    ("fr", "Les nations jouent sous leur drapeau : elles n’ont pas de logo à changer."),
    ("af", "Die nasies speel onder hul vlae: hulle het geen logo om te verander nie."),
])
def test_a_service_refusal_speaks_the_visitors_language(language, expected):
    nation = Team.objects.filter(owner__isnull=True).first()
    assert nation is not None and nation.is_nation
    with translation.override(language), pytest.raises(Forbidden) as refused:
        team_logo_set(team=nation, file=b"not a picture")
    assert refused.value.text == expected


@pytest.mark.django_db
def test_a_message_with_a_placeholder_is_filled_after_translation():
    with translation.override("fr"), pytest.raises(DomainError) as refused:
        tournament_create_from_preset("no-such-preset")
    assert refused.value.text.startswith("Modèle inconnu 'no-such-preset' ; choisissez l’un de : ")
