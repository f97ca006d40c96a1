# komadai: the Discord bot in a small image.
#   docker build -t komadai .
#   docker run -d --name komadai -e DISCORD_TOKEN=... -v komadai-data:/data komadai

# --- build stage: the tests run here, so a broken build never becomes an image
FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo test --locked \
 && cargo build --release --locked \
 && strip target/release/komadai

# --- runtime: Debian slim, one binary (fonts and migrations are embedded)
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin komadai \
 && mkdir -p /data && chown komadai:komadai /data
COPY --from=build /src/target/release/komadai /usr/local/bin/komadai
USER komadai
WORKDIR /data
VOLUME ["/data"]
# The token comes from the environment at run time, never from the image.
ENV KOMADAI_DB=/data/komadai.db
ENTRYPOINT ["komadai"]
CMD ["serve"]
