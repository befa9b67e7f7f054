"""What the operator of a running bot sees and relies on: the optional HTTP listener (/healthz, /metrics), the
health checks, what the bot watches of its Discord traffic, logs for collectors, `python -m bot check`.
Start-up (bot/app.py, bot/__main__.py) alone wires it in; the counters themselves are bot/core/metrics.py's."""
