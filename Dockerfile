# The server's image, built once by `docker compose up` (docker-compose.yml): the locked
# dependencies first (a layer kept until requirements.txt changes), then the source.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /srv

COPY requirements.txt ./
RUN pip install --no-cache-dir --require-hashes -r requirements.txt

COPY app ./app
COPY engine ./engine
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static

# ./data holds the SQLite file (when no DATABASE_URL is given) and a generated SECRET_KEY
RUN useradd --system --home-dir /srv app && mkdir -p /srv/data && chown app /srv/data
USER app
VOLUME /srv/data

ENV HOST=0.0.0.0 PORT=8000
EXPOSE 8000
CMD ["python", "-m", "app"]
