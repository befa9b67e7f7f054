"""Discord's published contract: its OpenAPI 3.1 document, vendored beside this file, checks what the bot sends
and what the fake answers.

`openapi.json` is `specs/openapi.json` of the public repository discord/discord-api-spec (MIT: `openapi.LICENSE`)
at the commit in `openapi.commit`. To update it to the repository's newest commit (then run tests/fake_discord/
and the e2e tests, and mend or list in DIVERGENCES what they find)::

    python -m tests.fake_discord.contract update

Every request body the bot sends (a JSON body, a multipart body's `payload_json`) is validated against the
request schema of its route and method (`request_errors`): a violation is answered as Discord answers it (400,
code 50035, "Invalid Form Body", the field's path in Discord's `errors` shape) and is the bot's fault. Every
answer of the fake is validated against the response schema of its route and status (`response_gaps`). The
document is registered as one JSON Schema 2020-12 resource (`referencing`), and each route's validator is built
once. Where the document is known to differ from Discord, `DIVERGENCES` patches the loaded copy, each with its
reason. The limits the document cannot express stay hand-written in limits.py.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from referencing import Registry
from referencing.jsonschema import DRAFT202012

HERE = Path(__file__).resolve().parent
SPEC = HERE / "openapi.json"
SPEC_COMMIT = HERE / "openapi.commit"
# The base URI the document is registered under (its `servers` URL, and the file's name).
URI = "https://discord.com/api/v10/openapi.json"
JSON = "application/json"
MULTIPART = "multipart/form-data"
# A bot's message content: Discord refuses more than 2,000 characters from a bot (4,000 is for users with Nitro).
BOT_CONTENT_LIMIT = 2000
Document = dict[str, Any]


@dataclasses.dataclass(frozen=True)
class Divergence:
    """Where Discord's published document is known to differ from what Discord does."""

    what: str
    why: str
    patch: Callable[[Document], None]


def _snowflakes_as_integers(document: Document) -> None:
    schemas = document["components"]["schemas"]
    schemas["SnowflakeType"] = {"anyOf": [schemas["SnowflakeType"], {"type": "integer", "minimum": 0}]}


def _bot_content_limit(document: Document) -> None:
    for name, schema in document["components"]["schemas"].items():
        content = schema.get("properties", {}).get("content")
        if name.endswith(("Request", "RequestPartial")) and content and content.get("maxLength", 0) > 2000 \
                and "string" in content.get("type", ()):
            content["maxLength"] = BOT_CONTENT_LIMIT


DIVERGENCES = (
    Divergence("a snowflake may be a JSON integer (SnowflakeType: a string of digits in the document)",
               "Discord reads a snowflake from an integer as well as from a string, and discord.py sends "
               "attachment ids (and allowed_mentions' users) as integers", _snowflakes_as_integers),
    Divergence("a message's `content` holds at most 2,000 characters (4,000 in the document's message requests)",
               "4,000 is the limit of a user with Nitro; a bot's is 2,000", _bot_content_limit),
)


@functools.cache
def document() -> Document:
    """The vendored document, with `DIVERGENCES` applied and its tagged unions dispatched on their tag."""
    loaded: Document = json.loads(SPEC.read_text(encoding="utf-8"))
    for divergence in DIVERGENCES:
        divergence.patch(loaded)
    _dispatch_unions(loaded, loaded["components"]["schemas"])
    return loaded


def _tags(schemas: Document, alternative: Any) -> list[Any] | None:
    """The `type` values an alternative of a union allows, if it is a named object schema that requires it."""
    ref = alternative.get("$ref", "") if isinstance(alternative, dict) else ""
    target = schemas.get(ref.removeprefix("#/components/schemas/")) if ref.startswith("#/components/") else None
    if not target or "type" not in target.get("required", ()):
        return None
    tag = target.get("properties", {}).get("type", {})
    return list(tag["enum"]) if isinstance(tag.get("enum"), list) else None


TAGGED = "x-tablero-tagged"   # the keyword of a union dispatched on its tag (`_tagged`)


def _dispatch_unions(node: Any, schemas: Document) -> None:
    """Rewrite each union (oneOf, anyOf) of object schemas told apart by their `type` (the components, the
    interaction callbacks) as the keyword `TAGGED`, which checks a value against its own alternative alone, not
    all of them (a message's 25 buttons against 7 kinds of row and 6 of item each: 30 ms a body instead of 1),
    so that an error names the field of that alternative; a union of constants (the enumerations: button
    styles, component types) as an enum; and a union of null and one schema without null as an anyOf tried in
    that schema first. The same values pass and fail."""
    if isinstance(node, list):
        for item in node:
            _dispatch_unions(item, schemas)
        return
    if not isinstance(node, dict):
        return
    for key in ("oneOf", "anyOf"):
        alternatives = node.get(key)
        if not isinstance(alternatives, list):
            continue
        tags = [_tags(schemas, a) for a in alternatives]
        flat = [t for each in tags if each is not None for t in each]
        if len(tags) >= 2 and all(t is not None for t in tags) and len(set(map(str, flat))) == len(flat):
            del node[key]
            node[TAGGED] = {"values": flat, "schemas": {str(t): a for each, a in zip(tags, alternatives)
                                                        for t in each or ()}}
        elif all(isinstance(a, dict) and "const" in a for a in alternatives) \
                and len({json.dumps(a["const"]) for a in alternatives}) == len(alternatives):
            del node[key]
            node["enum"] = [a["const"] for a in alternatives]
        elif len(alternatives) == 2 and {"type": "null"} in alternatives:
            other = next(a for a in alternatives if a != {"type": "null"})
            if "$ref" in other and "null" not in str(_named(schemas, other).get("type", "null")):
                del node[key]
                node["anyOf"] = [other, {"type": "null"}]
    for value in node.values():
        _dispatch_unions(value, schemas)


def _named(schemas: Document, alternative: Document) -> Document:
    named: Document = schemas.get(alternative["$ref"].removeprefix("#/components/schemas/"), {})
    return named


def _tagged(validator: Any, union: Document, instance: Any, schema: Document) -> Iterator[ValidationError]:
    """The keyword `TAGGED`: an object whose `type` is one of the union's values, valid against that value's
    alternative."""
    if not validator.is_type(instance, "object"):
        yield ValidationError(f"{instance!r} is not of type 'object'")
        return
    wrong = list(validator.descend(instance.get("type"), {"enum": union["values"]}, path="type"))
    if "type" not in instance:
        yield ValidationError("'type' is a required property", validator="required", validator_value=["type"])
    elif wrong:
        yield from wrong
    else:
        yield from validator.descend(instance, union["schemas"][str(instance["type"])])


Validator: Any = validators.extend(Draft202012Validator, {TAGGED: _tagged})  # type: ignore[no-untyped-call]


def spec_commit() -> str:
    return SPEC_COMMIT.read_text(encoding="utf-8").split()[0]


@functools.cache
def _registry() -> Registry[Any]:
    registry: Registry[Any] = Registry().with_resource(URI, DRAFT202012.create_resource(document()))
    return registry


def _canonical(template: str) -> str:
    """A route with its parameters unnamed: the fake's "/channels/{channel}" is the document's
    "/channels/{channel_id}"."""
    return re.sub(r"\{[^}]*\}", "{}", template)


@functools.cache
def _paths() -> dict[str, str]:
    return {_canonical(path): path for path in document()["paths"]}


def _pointer(*parts: str) -> str:
    return "/".join(part.replace("~", "~0").replace("/", "~1") for part in parts)


def _validator(*parts: str) -> Any:
    """A validator of the schema at `parts` of the document (None if there is none), built once per schema."""
    node: Any = document()
    for part in parts:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return Validator({"$ref": f"{URI}#/{_pointer(*parts)}"}, registry=_registry())


@functools.cache
def request_validator(method: str, template: str, media: str) -> Any:
    """The validator of a request body sent to `template` with `method` as `media` (JSON or multipart)."""
    path = _paths().get(_canonical(template))
    if path is None:
        return None
    return _validator("paths", path, method.lower(), "requestBody", "content", media, "schema")


@functools.cache
def response_validator(method: str, template: str, status: int) -> Any:
    path = _paths().get(_canonical(template))
    if path is None:
        return None
    return _validator("paths", path, method.lower(), "responses", str(status), "content", JSON, "schema")


@functools.cache
def success_status(method: str, template: str) -> int:
    """The status Discord answers a success with, if it has a body: 200, or 201 (a thread started)."""
    path = _paths().get(_canonical(template))
    responses = document()["paths"][path][method.lower()]["responses"] if path else {}
    return next((int(status) for status, answer in responses.items()
                 if status.startswith("2") and "content" in answer), 200)


# Discord's error codes for a field, by the keyword the value failed (those of Discord's own answers).
_CODES = {"maxLength": "BASE_TYPE_MAX_LENGTH", "maxItems": "BASE_TYPE_MAX_LENGTH",
          "minLength": "BASE_TYPE_MIN_LENGTH", "minItems": "BASE_TYPE_MIN_LENGTH", "required": "BASE_TYPE_REQUIRED",
          "enum": "BASE_TYPE_CHOICES", "const": "BASE_TYPE_CHOICES", "type": "BASE_TYPE_BAD",
          "maximum": "NUMBER_TYPE_MAX", "minimum": "NUMBER_TYPE_MIN", "pattern": "STRING_TYPE_REGEX",
          "format": "BASE_TYPE_BAD"}


def _field_errors(error: ValidationError) -> list[tuple[list[str], JsonError]]:
    """Where the error is (the field's path; a missing field's own) and Discord's entry for it."""
    path = [str(part) for part in error.absolute_path]
    value: Any = error.validator_value
    code = _CODES.get(str(error.validator), "BASE_TYPE_INVALID")
    if error.validator == "required":
        present = error.instance if isinstance(error.instance, dict) else {}
        return [([*path, name], {"code": code, "message": "This field is required"})
                for name in value if name not in present]
    if error.validator in ("maxLength", "maxItems"):
        message = f"Must be {value} or fewer in length."
    elif error.validator in ("minLength", "minItems"):
        message = f"Must be {value} or more in length."
    elif error.validator == "enum":
        message = f"Value must be one of {set(value)}."
    else:
        message = error.message
    return [(path, {"code": code, "message": message})]


JsonError = dict[str, str]


def _leaves(error: ValidationError) -> list[ValidationError]:
    """The errors that say what is wrong in a value no alternative of a union (anyOf, oneOf) accepts: those of
    the alternative of the value's type that came nearest (fewest errors), else the union's own."""
    if not error.context:
        return [error]
    by_alternative: dict[Any, list[ValidationError]] = {}
    for inner in error.context:
        by_alternative.setdefault(inner.relative_schema_path[0], []).append(inner)
    fitting = [errors for errors in by_alternative.values()
               if not any(e.validator == "type" and len(e.path) == 0 for e in errors)]
    if not fitting:
        return [error]
    return [leaf for inner in min(fitting, key=len) for leaf in _leaves(inner)]


def _errors_object(found: Iterable[ValidationError]) -> tuple[dict[str, Any], list[str]]:
    """Discord's `errors` ({"components": {"0": {"custom_id": {"_errors": [...]}}}}) and each error as a line."""
    errors: dict[str, Any] = {}
    lines = []
    for error in (leaf for each in found for leaf in _leaves(each)):
        for path, entry in _field_errors(error):
            node = errors
            for part in path:
                node = node.setdefault(part, {})
            node.setdefault("_errors", []).append(entry)
            lines.append(f"{'.'.join(path) or '(body)'}: {entry['code']}: {entry['message']}")
    return errors, lines


@dataclasses.dataclass
class Violation:
    """A body the document refuses: Discord's `errors` object and the same as text."""

    errors: dict[str, Any]
    lines: list[str]

    def __str__(self) -> str:
        return "Invalid Form Body: " + "; ".join(self.lines)


def request_errors(method: str, template: str, media: str, body: Any) -> Violation | None:
    """What Discord would refuse in the body, as its `errors` object; None if the document accepts it."""
    validator = request_validator(method, template, media)
    if validator is None:
        return None
    found = list(validator.iter_errors(body))
    if not found:
        return None
    return Violation(*_errors_object(found))


def skeleton(value: Any) -> Any:
    """What the document's response schemas can tell apart in an answer: its keys and lists, its booleans,
    nulls and small numbers (enumerations, counts), the type of the others (sizes), and of each string whether
    it is digits (a snowflake's pattern) and whether it is empty. The fake's answers vary in ids, times, sizes
    and texts, which those schemas leave free."""
    if isinstance(value, dict):
        return tuple((key, skeleton(item)) for key, item in value.items())
    if isinstance(value, list):
        return tuple(skeleton(item) for item in value)
    if isinstance(value, str):
        return "#" if value.isdigit() else "" if not value else "s"
    if isinstance(value, bool) or value is None or (isinstance(value, int) and -1000 < value < 1000):
        return value   # (small numbers: enumerations, counts)
    return type(value)


_checked_answers: dict[Any, list[str]] = {}   # an answer's skeleton -> its gaps (see response_gaps)


def response_gaps(method: str, template: str, status: int, body: Any) -> list[str]:
    """Where the fake's answer departs from what Discord answers (the document's response schema). Answers of
    one skeleton (`skeleton`) are validated once: a whole e2e run answers about 13,000 times, in a few hundred
    skeletons."""
    key = (method, template, status, skeleton(body))
    if key not in _checked_answers:
        validator = response_validator(method, template, status)
        _checked_answers[key] = [f"{method} {template} {status}: no response schema in the document"] \
            if validator is None else [f"{method} {template} {status}: {line}"
                                       for line in _errors_object(validator.iter_errors(body))[1]]
    return _checked_answers[key]


@dataclasses.dataclass
class ContractTally:
    """What the fake checked against the document: request bodies and violations, answers and gaps."""

    requests: int = 0
    violations: list[str] = dataclasses.field(default_factory=list)
    answers: int = 0
    gaps: list[str] = dataclasses.field(default_factory=list)
    seconds: float = 0.0  # spent validating
    provoked: list[str] = dataclasses.field(default_factory=list)  # violations a test sent on purpose and took

    def add(self, other: ContractTally) -> None:
        self.requests += other.requests
        self.violations += other.violations
        self.answers += other.answers
        self.gaps += other.gaps
        self.seconds += other.seconds
        self.provoked += other.provoked

    def by_the_bot(self) -> list[str]:
        """The violations no test provoked on purpose (FakeDiscord.take_violations): the bot's."""
        left = list(self.violations)
        for taken in self.provoked:
            left.remove(taken)
        return left

    def summary(self) -> str:
        return (f"Discord's OpenAPI document (discord-api-spec {spec_commit()[:12]}): {self.requests} request "
                f"bodies validated, {len(self.by_the_bot())} violations ({len(self.provoked)} more sent on "
                f"purpose by the fake's tests); {self.answers} answers validated, {len(self.gaps)} gaps "
                f"({self.seconds:.1f} s)")


REPOSITORY = "discord/discord-api-spec"


def update() -> str:
    """Vendor the newest `specs/openapi.json` of discord/discord-api-spec, its licence and its commit."""
    import subprocess
    import urllib.request
    from datetime import UTC, datetime

    commit = subprocess.run(["git", "ls-remote", f"https://github.com/{REPOSITORY}", "HEAD"], check=True,
                            capture_output=True, text=True).stdout.split()[0]
    raw = f"https://raw.githubusercontent.com/{REPOSITORY}/{commit}"
    for source, target in (("specs/openapi.json", SPEC), ("LICENSE", HERE / "openapi.LICENSE")):
        with urllib.request.urlopen(f"{raw}/{source}", timeout=60) as answer:
            target.write_bytes(answer.read())
    SPEC_COMMIT.write_text(f"{commit} {datetime.now(UTC):%Y-%m-%d} specs/openapi.json of "
                           f"github.com/{REPOSITORY}\n", encoding="utf-8")
    return commit


if __name__ == "__main__":
    import sys

    if sys.argv[1:] != ["update"]:
        sys.exit("usage: python -m tests.fake_discord.contract update")
    print(f"openapi.json at {update()}")
