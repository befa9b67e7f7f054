"""compose.yaml (Docker is not available here: the file is read with a YAML parser): PostgreSQL and two bot
processes that run docs/scaling.md's command on shard ranges covering every shard once."""
from pathlib import Path

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
