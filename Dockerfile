# torite's container image, built from the source: the first stage compiles the release binary
# in Rust's image, the second keeps only the binary, the C library it links and an unprivileged
# user (10001), with the database in the volume /data (the same image as deploy/image.sh builds
# around a binary built outside). See README.md, "Hosting a server for a club".
#
#   podman build -t torite .        (or docker build -t torite .)
#   podman run -d -p 8080:8080 -v torite-data:/data torite
FROM docker.io/library/rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p torite-cli \
    && deploy/rootfs.sh target/release/torite /image

FROM scratch
COPY --from=build /image/root/ /
COPY --from=build --chown=10001:10001 /image/data/ /data/
USER 10001:10001
WORKDIR /data
VOLUME /data
EXPOSE 8080
ENV TORITE_ADDR=0.0.0.0:8080 TORITE_DATA_DIR=/data
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/torite"]
CMD ["serve"]
