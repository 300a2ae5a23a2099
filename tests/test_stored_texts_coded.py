"""The site's own words are never stored as sentences (issue 14): the AST check behind it.

A reason, a summary or a note saved as a sentence is in the language of whoever saved it (or English, for a
literal), and every other reader gets that language. The services store a code and its parameters
(``league.stored_texts.Coded``) and the pages render the words. So, in every module of the apps: a ``reason=``,
``summary=``, ``note=``, ``error=``, ``message=`` or ``result_note=`` given to anything but an error (whose
message is translated for the request that sees it), or assigned to such an attribute or key, must not be a
sentence, an f-string or a ``gettext`` call, and neither may the summary passed to the audit helpers
(``_record``...). And every code written as
``Coded("...")`` has its words in a catalogue.
"""

from __future__ import annotations

import ast
from pathlib import Path

from league.stored_texts import REGISTRATION_SUMMARIES, RESULT_REASONS, SCHEDULE_SUMMARIES
from matches.models import SimulationRun

ROOT = Path(__file__).resolve().parent.parent
APPS = ("league", "matches", "web")
# Errors carry a message for the request that raised them (translated then) and a ``reason`` code.
NOT_STORED = {"DomainError", "NotFound", "Forbidden", "Conflict", "Unavailable", "ValidationError", "MatchError",
              "PermissionDenied", "NotAuthenticated", "CommandError", "extend_schema", "inline_serializer",
              "OpenApiResponse", "OpenApiParameter"}
STORED_KEYWORDS = {"reason", "summary", "note", "error", "message", "result_note"}
# The audit helpers whose positional arguments are stored as they are.
AUDIT_HELPERS = {"_record", "_record_by_division", "_record_result", "run_fail", "walkover_record", "result_remove"}
TRANSLATORS = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext", "pgettext_lazy"}
CATALOGUES = {**RESULT_REASONS, **SCHEDULE_SUMMARIES, **REGISTRATION_SUMMARIES, **SimulationRun.RUN_NOTES}


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _sentence(node: ast.AST | None) -> bool:
    """True when ``node`` makes words in one language: a literal with a space, an f-string, a gettext call."""
    if node is None:
        return False
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and " " in node.value.strip()
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.Call):
        return _name(node.func) in TRANSLATORS or (_name(node.func) == "format" and isinstance(node.func, ast.Attribute)
                                                  and _sentence(node.func.value))
    if isinstance(node, ast.BinOp):
        return _sentence(node.left) or _sentence(node.right)
    if isinstance(node, ast.BoolOp):
        return any(_sentence(value) for value in node.values)
    if isinstance(node, ast.IfExp):
        return _sentence(node.body) or _sentence(node.orelse)
    return False


def _stored_target(node: ast.AST) -> bool:
    """``job.error``, ``outcome["result_note"]``: a place a stored text goes."""
    if isinstance(node, ast.Attribute):
        return node.attr in STORED_KEYWORDS
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return node.slice.value in STORED_KEYWORDS
    return False


def _assigned(node: ast.Assign) -> list[ast.AST]:
    """The values assigned to stored places (``a.status, a.error = x, f"..."`` included)."""
    texts = []
    for target in node.targets:
        if _stored_target(target):
            texts.append(node.value)
        elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
            texts += [value for part, value in zip(target.elts, node.value.elts, strict=False) if _stored_target(part)]
    return texts


def stored_sentences(source: str) -> list[tuple[int, str]]:
    """(line, code) of each text stored as a sentence in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        texts: list[ast.AST] = []
        if isinstance(node, ast.Call) and _name(node.func) not in NOT_STORED:
            texts = [keyword.value for keyword in node.keywords if keyword.arg in STORED_KEYWORDS]
            if _name(node.func) in AUDIT_HELPERS:
                texts += node.args
        elif isinstance(node, ast.Assign):
            texts = _assigned(node)
        if any(_sentence(text) for text in texts):
            found.append((node.lineno, ast.unparse(node)[:110]))
    return sorted(found)


def coded_literals(source: str) -> list[tuple[int, str]]:
    """(line, code) of each ``Coded("code", ...)`` whose code is written out."""
    return [(node.lineno, node.args[0].value) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and _name(node.func) == "Coded" and node.args
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)]


def _modules() -> list[Path]:
    return sorted(path for app in APPS for path in (ROOT / app).rglob("*.py") if "migrations" not in path.parts)


def test_no_sentence_is_stored():
    found = [f"{path.relative_to(ROOT)}:{line}: {code}"
             for path in _modules() for line, code in stored_sentences(path.read_text())]
    assert not found, ("texts stored in one language (store a code: league.stored_texts.Coded(\"code\", {...}) and "
                       "render it where it is shown):\n" + "\n".join(found))


def test_every_code_has_its_words():
    codes = [(path, line, code) for path in _modules() for line, code in coded_literals(path.read_text())]
    assert len(codes) >= 20, "the check finds no Coded(...): it is stale"
    unknown = [f"{path.relative_to(ROOT)}:{line}: {code}" for path, line, code in codes if code not in CATALOGUES]
    assert not unknown, "codes with no words in league.stored_texts:\n" + "\n".join(unknown)


def test_the_check_sees_stored_sentences():
    source = '''
result_record(fixture=f, reason="CSV import")
result_record(fixture=f, reason=f"simulated match {pk}")
result_delete(fixture=f, reason=reason or f"{team} withdrew.")
_record(tournament, "move", _("%(fixture)s moved.") % {"fixture": name}, changes, user, reason)
SimulationRun.objects.filter(pk=1).update(error=f"{n} fixture(s) could not be simulated")
run_fail(run_id=1, message="The broker is down.")
job.status, job.error = "failed", f"The generation failed: {exc}"
match.outcome["result_note"] = "the fixture already had a result"
'''
    assert [line for line, _code in stored_sentences(source)] == [2, 3, 4, 5, 6, 7, 8, 9]
    allowed = '''
result_record(fixture=f, reason=Coded("csv_import"))
result_record(fixture=f, reason=reason)
raise Conflict(_("Already played."), reason="played")
_record(tournament, "move", Coded("moved", {"fixture": name}), changes, user, reason)
run_fail(run_id=1, note=Coded("not_queued", {"detail": str(exc)}))
job.status, job.error_code = "failed", "crashed"
match.outcome["result_note"] = "fixture_had_result"
'''
    assert stored_sentences(allowed) == []
