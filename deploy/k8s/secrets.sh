#!/bin/bash
# Creates (or rotates) everything secret that the manifests refer to, straight into the cluster:
# nothing secret is ever written into deploy/k8s. Needs kubectl, java and a built platform-common.
#
#   deploy/k8s/secrets.sh create NAMESPACE         # once: keys, passwords, auth keys, client secret
#   deploy/k8s/secrets.sh rotate NAMESPACE SIGNER  # a signer's platform key, without downtime
#
# Idempotent: 'create' keeps what exists.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
SIGNERS=(gateway auth-service directory-service vocab-service events-service)
SCHEMAS=(auth directory vocab events)

usage() { sed -n '2,9p' "$0"; exit 2; }
[ $# -ge 2 ] || usage
cmd=$1 ns=$2
k() { kubectl -n "$ns" "$@"; }
exists() { k get "$1" "$2" >/dev/null 2>&1; }
rand() { head -c 32 /dev/urandom | base64 | tr -d '\n'; }
word() { head -c 32 /dev/urandom | base64 | tr -dc 'A-Za-z0-9'; }
keytool() {
  local jar; jar=$(ls "$root"/platform-common/target/platform-common-*.jar 2>/dev/null | grep -v tests | head -1)
  [ -n "$jar" ] || { echo "build platform-common first: ./mvnw -pl platform-common package -DskipTests" >&2; exit 1; }
  java -cp "$jar" org.ziggurat.platform.token.PlatformKeys "$@" >/dev/null
}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; chmod 700 "$work"

# The JWKS every service trusts: the public keys of the given private-key files, plus any keys
# listed in an extra JWKS file (the keys being retired during a rotation).
publish_jwks() {
  local extra=${1:-}
  if [ -n "$extra" ] && [ -s "$extra" ]; then
    jq -s '{keys: ([.[].keys[]] | unique_by(.kid))}' "$work/jwks.json" "$extra" >"$work/merged.json"
    mv "$work/merged.json" "$work/jwks.json"
  fi
  k create configmap ziggurat-platform-jwks --from-file=jwks.json="$work/jwks.json" --dry-run=client -o yaml | k apply -f -
}

case "$cmd" in
  create)
    kubectl get namespace "$ns" >/dev/null 2>&1 || kubectl create namespace "$ns"
    for s in "${SCHEMAS[@]}"; do
      exists secret "ziggurat-db-$s" || k create secret generic "ziggurat-db-$s" --type=kubernetes.io/basic-auth \
        --from-literal=username="ziggurat_$s" --from-literal=password="$(word)"
    done
    exists secret ziggurat-auth || k create secret generic ziggurat-auth \
      --from-literal=token-hash-key="$(rand)" --from-literal=token-encryption-key="$(rand)"
    exists secret ziggurat-directory || k create secret generic ziggurat-directory --from-literal=factor-key="$(rand)"
    exists secret ziggurat-events || k create secret generic ziggurat-events --from-literal=webhook-secret-key="$(rand)"
    exists secret ziggurat-gateway || k create secret generic ziggurat-gateway --from-literal=client-secret="$(word)$(word)"
    for m in "${SIGNERS[@]}"; do
      if exists secret "ziggurat-signing-$m"; then
        k get secret "ziggurat-signing-$m" -o jsonpath='{.data.private\.pem}' | base64 -d >"$work/$m.private.pem"
      else
        keytool "$work" "$m"
        k create secret generic "ziggurat-signing-$m" --from-file=private.pem="$work/$m.private.pem"
      fi
    done
    keytool "$work" "${SIGNERS[@]}"
    publish_jwks
    ;;
  rotate)
    signer=${3:?rotate needs a SIGNER: ${SIGNERS[*]}}
    # 1. Trust the new key beside the old one everywhere, and roll the services so they load it.
    k get configmap ziggurat-platform-jwks -o jsonpath='{.data.jwks\.json}' >"$work/current.json"
    for m in "${SIGNERS[@]}"; do
      [ "$m" = "$signer" ] && continue
      k get secret "ziggurat-signing-$m" -o jsonpath='{.data.private\.pem}' | base64 -d >"$work/$m.private.pem"
    done
    keytool "$work" "$signer"
    keytool "$work" "${SIGNERS[@]}"
    publish_jwks "$work/current.json"
    for m in "${SIGNERS[@]}"; do k rollout restart deployment "$m"; done
    for m in "${SIGNERS[@]}"; do k rollout status deployment "$m" --timeout=10m; done
    # 2. Sign with the new key.
    k create secret generic "ziggurat-signing-$signer" --from-file=private.pem="$work/$signer.private.pem" \
      --dry-run=client -o yaml | k apply -f -
    k rollout restart deployment "$signer" && k rollout status deployment "$signer" --timeout=10m
    # 3. Once no token signed by the old key can be alive (platform tokens live 120 s), stop trusting it.
    sleep 180
    keytool "$work" "${SIGNERS[@]}"
    publish_jwks
    for m in "${SIGNERS[@]}"; do k rollout restart deployment "$m"; done
    ;;
  *) usage ;;
esac
