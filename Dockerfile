# Tablero Discord bot. Build: docker build -t tablero .   Run: docker run -e DISCORD_TOKEN=... -v tablero-data:/data tablero
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    TABLERO_DATABASE=/data/tablero.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY renderer ./renderer
COPY data ./data
# The same install line as the README.
RUN python -m pip install --no-cache-dir -e . \
    && useradd --create-home --uid 10001 tablero \
    && mkdir /data && chown tablero /data

USER 10001
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
