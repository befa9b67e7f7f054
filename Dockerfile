# Tablero Discord bot. Build: docker build -t tablero .
# Run: docker run -d --restart unless-stopped -e DISCORD_TOKEN=... -v tablero-data:/data tablero
# Stage 1 builds the wheel (the code with data/ inside it, as the package tablero_data);
# stage 2 installs that wheel alone: no source tree, no editable install.
FROM python:3.11-slim AS build

WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY bot ./bot
COPY renderer ./renderer
COPY data ./data
RUN python -m pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM python:3.11-slim

# The health and metrics listener on the container's loopback, for the HEALTHCHECK below (docs/operating.md:
# TABLERO_HTTP=0.0.0.0:9108 lets a Prometheus beside it scrape /metrics).
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    TABLERO_DATABASE=/data/tablero.sqlite3 \
    TABLERO_HTTP=127.0.0.1:9108

# Fonts for players' names in any script and emoji (renderer.common's fallback chain looks for them by name),
# and what Pillow's raqm layout needs to write right-to-left names (FriBiDi; raqm and HarfBuzz for a Pillow
# built without its own): renderer.writing falls back to python-bidi + arabic-reshaper without them.
# Debian's stable packages, unpinned: an update changes no behaviour the tests pin.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji \
        libfribidi0 libraqm0 libharfbuzz0b \
    && rm -rf /var/lib/apt/lists/*

COPY --from=build /wheels /wheels
RUN python -m pip install --no-cache-dir /wheels/*.whl \
    && rm -rf /wheels \
    && useradd --create-home --uid 10001 tablero \
    && mkdir /data && chown tablero /data

USER 10001
WORKDIR /data
VOLUME ["/data"]
# Healthy while every shard is connected, the database answers and the event loop is on time (GET /healthz).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.operations.probe"]
CMD ["python", "-m", "bot"]
