#!/usr/bin/env bash
# Builds a real kube-apiserver 1.20.2 and a client-go leader-election candidate (scripts/kube-leader/main.go) from
# Debian's `kubernetes` source package with Debian's Go, offline (GOPROXY=off, the tree's vendor/). The binaries are
# cached outside the repo, so a machine builds once (about 6 minutes of one core):
#   ${LOCKBOARD_KUBE_CACHE:-~/.cache/lockboard/kubernetes-1.20.2}/bin/{kube-apiserver,kube-leader}
# The system's apt sources are untouched: a private copy of them, as deb-src, in the cache.
# Needs: golang-go (Debian), apt-get with network access to the Debian mirror.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${LOCKBOARD_KUBE_CACHE:-$HOME/.cache/lockboard/kubernetes-1.20.2}"
bin="$cache/bin"
leader_src="$here/kube-leader/main.go"
leader_sum="$(sha256sum "$leader_src" | cut -d' ' -f1)"
if [ -x "$bin/kube-apiserver" ] && [ -x "$bin/kube-leader" ] && [ "$(cat "$bin/kube-leader.sha256" 2>/dev/null)" = "$leader_sum" ]; then
  echo "kube-apiserver and kube-leader already built in $bin"
  exit 0
fi
command -v go >/dev/null || { echo "kube-apiserver.sh: Debian's Go is missing: apt-get install golang-go" >&2; exit 1; }
mkdir -p "$cache/apt/lists/partial" "$bin"
cd "$cache"
tree="$cache/kubernetes-1.20.2"
if [ ! -d "$tree/cmd/kube-apiserver" ]; then
  # 1. Debian's source package through a private apt configuration (no dpkg-dev needed: download only): the
  #    system's own Debian sources, as deb-src (deb822 files and one-line lists alike)
  mkdir -p "$cache/apt/sources.list.d"
  for f in /etc/apt/sources.list.d/*.sources; do
    if [ -e "$f" ]; then sed 's/^Types: deb$/Types: deb-src/' "$f" >"$cache/apt/sources.list.d/$(basename "$f")"; fi
  done
  cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | sed -n 's/^deb /deb-src /p' >"$cache/apt/sources.list" || true
  apt_opts=(-o "Dir::Etc::SourceList=$cache/apt/sources.list" -o "Dir::Etc::SourceParts=$cache/apt/sources.list.d"
    -o "Dir::State::Lists=$cache/apt/lists" -o "Dir::Cache=$cache/apt/cache")
  mkdir -p "$cache/apt/cache/archives/partial"
  apt-get "${apt_opts[@]}" update -qq
  mkdir -p "$cache/src" && (cd "$cache/src" && apt-get "${apt_opts[@]}" source -d kubernetes)
  orig="$(ls "$cache"/src/kubernetes_*.orig.tar.gz | head -n1)"
  tmp="$cache/unpack" && rm -rf "$tmp" && mkdir -p "$tmp"
  tar xzf "$orig" -C "$tmp"
  rm -rf "$tree" && mv "$tmp"/* "$tree" && rmdir "$tmp"
fi
# 2. GOPATH mode, as the tree's own hack/lib/init.sh builds it (module mode under Go 1.19 wants go.mod updates)
mkdir -p "$cache/gp/src/k8s.io"
ln -sfn "$tree" "$cache/gp/src/k8s.io/kubernetes"
export GO111MODULE=off GOPATH="$cache/gp" CGO_ENABLED=0 GOPROXY=off GOFLAGS=
cd "$cache/gp/src/k8s.io/kubernetes"
build() { nice -n 19 go build -p 1 "$@"; }
if [ ! -x "$bin/kube-apiserver" ]; then
  # 3. The one generated file the tarball lacks (Makefile.generated_files gen_openapi)
  if [ ! -f pkg/generated/openapi/zz_generated.openapi.go ]; then
    build -o "$cache/openapi-gen" k8s.io/kubernetes/vendor/k8s.io/kube-openapi/cmd/openapi-gen
    # every package holding +k8s:openapi-gen= under pkg/, cmd/, plugin/ and vendor/k8s.io/ (following links)
    inputs="$(grep -Rl --include='*.go' -e '+k8s:openapi-gen=' pkg cmd plugin vendor/k8s.io |
      xargs -n1 dirname | sort -u | grep -v -e code-generator -e sample-apiserver | sed 's#^#k8s.io/kubernetes/#' | paste -sd, -)"
    nice -n 19 "$cache/openapi-gen" -i "$inputs" -p k8s.io/kubernetes/pkg/generated/openapi -O zz_generated.openapi \
      -h vendor/k8s.io/code-generator/hack/boilerplate.go.txt -r "$cache/openapi-report.txt"
  fi
  # 4. The apiserver itself (nice, one package at a time: the machine is shared)
  build -o "$bin/kube-apiserver.tmp" k8s.io/kubernetes/cmd/kube-apiserver
  mv "$bin/kube-apiserver.tmp" "$bin/kube-apiserver"
fi
# 5. The client-go candidate, compiled inside the tree so it uses the tree's vendored client-go
mkdir -p cmd/lockboard-kube-leader && cp "$leader_src" cmd/lockboard-kube-leader/main.go
build -o "$bin/kube-leader" k8s.io/kubernetes/cmd/lockboard-kube-leader
echo "$leader_sum" >"$bin/kube-leader.sha256"
echo "built $bin/kube-apiserver and $bin/kube-leader"
