"""compose.yaml (Docker is not available here: the file is read with a YAML parser, its variables resolved as
`docker compose config` does): PostgreSQL and two bot processes that run docs/scaling.md's command on shard ranges
covering every shard once, and the profiles docs/operating.md names."""
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from bot.core.shards import parse_shards
from bot.store import is_postgresql

ROOT = Path(__file__).resolve().parents[2]
SCALING = ROOT / "docs" / "scaling.md"   # where the README sends whoever runs several processes


def test_compose_runs_postgresql_and_bots_on_every_shard_once_with_the_documented_commands():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    scaling = SCALING.read_text()
    services = compose["services"]
    bots = {name: s for name, s in services.items()
            if s.get("command") == ["python", "-m", "bot"] and s["profiles"] == ["sharded"]}
    assert len(bots) == 2 and services["db"]["image"].startswith("postgres:")
    assert "docker compose --profile sharded up -d --build" in scaling
    covered: list[int] = []
    for name, service in bots.items():
        env = service["environment"]
        assert service["build"] == "." and service["depends_on"]["db"]["condition"] == "service_healthy"
        assert is_postgresql(env["TABLERO_DATABASE"]) and "@db/" in env["TABLERO_DATABASE"]
        shards = parse_shards(env["TABLERO_SHARD_COUNT"], env["TABLERO_SHARD_IDS"])
        covered += shards.ids
        command = f"TABLERO_SHARD_COUNT={shards.count} TABLERO_SHARD_IDS={env['TABLERO_SHARD_IDS']} python -m bot"
        assert command in scaling, f"{name}: docs/scaling.md shows no {command!r}"
    assert sorted(covered) == list(range(shards.count))


def test_compose_has_a_migrate_step_keeps_the_password_out_of_urls_and_bounds_restarts():
    """docs/scaling.md's "migrate first" needs the database compose keeps private; a password with @ or : would
    break a URL; a wrong token (exit 1) must not restart forever."""
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    scaling = SCALING.read_text()
    services = compose["services"]
    migrate = services["migrate"]
    assert migrate["command"][:3] == ["python", "-m", "bot.tools.migrate"] and migrate["profiles"] == ["migrate"]
    assert "docker compose run --rm migrate" in scaling
    source = migrate["command"][3]
    assert any(v.split(":")[1] == str(Path(source).parent) for v in migrate["volumes"])
    for name, service in services.items():
        env = service.get("environment", {})
        assert all("TABLERO_DB_PASSWORD" not in str(value) for key, value in env.items() if "DATABASE" in key), name
        if name != "db":
            assert "TABLERO_DB_PASSWORD" in env.get("PGPASSWORD", ""), name
        if service.get("command") == ["python", "-m", "bot"]:
            policy, _, retries = service["restart"].partition(":")
            assert policy == "on-failure" and 0 < int(retries) <= 10, name


def test_compose_has_a_one_process_profile_and_every_bot_reports_its_health():
    """One process on PostgreSQL for a friends' server, beside the sharded profile; each bot's listener
    on compose's network (for a Prometheus there), asked by the image's health check."""
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    dockerfile = (ROOT / "Dockerfile").read_text()
    services = compose["services"]
    single = [s for s in services.values() if s.get("profiles") == ["single"]]
    assert len(single) == 1 and "TABLERO_SHARD_COUNT" not in single[0]["environment"]
    assert is_postgresql(single[0]["environment"]["TABLERO_DATABASE"])
    for name, service in services.items():
        if service.get("command") == ["python", "-m", "bot"]:
            assert service["environment"]["TABLERO_HTTP"] == "0.0.0.0:9108" and "ports" not in service, name
            assert service["healthcheck"]["test"] == ["CMD", "python", "-m", "bot.operations.probe"], name
    assert 'CMD ["python", "-m", "bot.operations.probe"]' in dockerfile and "TABLERO_HTTP=127.0.0.1:9108" in dockerfile


_VARIABLE = re.compile(r"\$\{(\w+)(?:(:?[-?])([^}]*))?\}|\$(\w+)")


def resolved(value: object, env: dict[str, str]) -> object:
    """`value` with Compose's interpolation done, as `docker compose config` does it: ${X}, ${X:-default},
    ${X-default}, ${X:?error}, ${X?error}, $X and $$; a required variable missing raises ValueError naming it."""
    if isinstance(value, dict):
        return {key: resolved(item, env) for key, item in value.items()}
    if isinstance(value, list):
        return [resolved(item, env) for item in value]
    if not isinstance(value, str):
        return value

    def one(match: re.Match[str]) -> str:
        name = match[1] or match[4]
        found, unset_or_empty = env.get(name), match[2] in (":-", ":?")
        missing = found is None or (unset_or_empty and found == "")
        if match[2] and match[2].endswith("?") and missing:
            raise ValueError(f"required variable {name} is missing a value: {match[3]}")
        return (match[3] if missing and match[2] and match[2].endswith("-") else found) or ""
    return "$".join(_VARIABLE.sub(one, part) for part in value.split("$$"))


def services_of(profile: str | None, env: dict[str, str]) -> list[str]:
    """The services `docker compose [--profile P] up` starts. Compose interpolates every service before it
    filters them by profile (so a variable required anywhere is required for every command)."""
    compose = resolved(yaml.safe_load((ROOT / "compose.yaml").read_text()), env)
    return sorted(name for name, service in compose["services"].items()
                  if not service.get("profiles") or profile in service["profiles"])


def test_every_profile_resolves_and_starts_what_operating_md_says_without_a_token_where_none_is_needed():
    """`docker compose up -d` alone starts PostgreSQL; single, sharded and migrate add their services; migrate
    needs no DISCORD_TOKEN (Compose would refuse it for a token the bots' services required)."""
    password = {"TABLERO_DB_PASSWORD": "pw"}
    assert services_of(None, password) == ["db"]
    assert services_of("single", password | {"DISCORD_TOKEN": "t"}) == ["bot", "db"]
    assert services_of("sharded", password | {"DISCORD_TOKEN": "t"}) == ["bot-shards-0-1", "bot-shards-2-3", "db"]
    assert services_of("migrate", password) == ["db", "migrate"]
    with pytest.raises(ValueError, match="TABLERO_DB_PASSWORD"):
        services_of(None, {})
    operating = (ROOT / "docs" / "operating.md").read_text()
    for command in ("docker compose --profile single up -d --build", "docker compose --profile sharded up -d --build",
                    "docker compose run --rm migrate"):
        assert command in operating, f"docs/operating.md shows no {command!r}"


def test_docker_compose_config_agrees_where_docker_compose_is_installed(tmp_path):
    """The same with Docker's own `docker compose config` (no engine needed), when the machine has it."""
    docker = shutil.which("docker")
    if docker is None or subprocess.run([docker, "compose", "version"], capture_output=True).returncode:
        pytest.skip("docker compose is not installed here: test_every_profile_resolves... checks the same")
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "TABLERO_DB_PASSWORD": "pw"}
    for profile, token in ((None, False), ("single", True), ("sharded", True), ("migrate", False)):
        run = subprocess.run(["docker", "compose", *(["--profile", profile] if profile else []), "config",
                              "--services"], capture_output=True, text=True, cwd=ROOT,
                             env=env | ({"DISCORD_TOKEN": "t"} if token else {}))
        assert run.returncode == 0, run.stderr
        assert sorted(run.stdout.split()) == services_of(profile, env | {"DISCORD_TOKEN": "t"}), profile
