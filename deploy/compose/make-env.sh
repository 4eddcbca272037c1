#!/bin/bash
# Prints a .env for compose.yaml with fresh random secrets: make-env.sh > .env (keep it private).
set -euo pipefail
rand() { head -c 32 /dev/urandom | base64 | tr -d '\n'; }
word() { head -c 24 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' ; }
echo "ZIGGURAT_DB_OWNER_PASSWORD=$(word)"
for s in AUTH DIRECTORY VOCAB EVENTS; do echo "ZIGGURAT_DB_PASSWORD_$s=$(word)"; done
echo "ZIGGURAT_AUTH_TOKEN_HASH_KEY=$(rand)"
echo "ZIGGURAT_AUTH_TOKEN_ENCRYPTION_KEY=$(rand)"
echo "ZIGGURAT_DIRECTORY_FACTOR_KEY=$(rand)"
echo "ZIGGURAT_GATEWAY_CLIENT_SECRET=$(word)$(word)"
echo "ZIGGURAT_PUBLIC_BASE_URL=http://localhost:8080/api"
