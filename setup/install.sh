#!/usr/bin/env bash
# Installs a released runledger binary for this runner: the archive for
# RUNNER_OS/RUNNER_ARCH from the GitHub release, checked against the
# release's checksums.txt before anything is extracted, kept in the tool
# cache, and put on PATH. setup/action.yml runs it with `shell: bash`, which
# is Git Bash on Windows runners.
#
# Inputs (env): RUNLEDGER_VERSION (a release tag, v1.2.3), and the
# runner's RUNNER_OS, RUNNER_ARCH, RUNNER_TOOL_CACHE, RUNNER_TEMP,
# GITHUB_PATH, GITHUB_OUTPUT.
#
# RUNLEDGER_DOWNLOAD_BASE is for tests only (setup's own tests and the
# workflow job that serves a snapshot build locally): the URL under which
# <tag>/<file> is fetched instead of the GitHub release. Do not set it in a
# real workflow: the checksums would then come from the same place as the
# archives.
set -euo pipefail

fail() {
  # A workflow command, so the message is the step's annotation too.
  echo "::error title=runledger setup::$*"
  exit 1
}

version=${RUNLEDGER_VERSION:-}
if [ -z "$version" ]; then
  fail "input version is empty: github.action_ref, its default, is empty when the action is used from a path (uses: ./setup) or from inside another composite action; set version: to a release tag such as v1.2.3"
fi
# Releases are tagged vMAJOR.MINOR.PATCH (release.yml runs on v*.*.*); a
# branch, a major tag (v1) or a commit has no release to download from.
if ! [[ $version =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
  fail "input version \"$version\" is not a release tag (vMAJOR.MINOR.PATCH, e.g. v1.2.3); a released setup action carries its own version, a branch or commit of it does not: set version:"
fi

case "${RUNNER_OS:-}" in
  Linux) os=linux ;;
  macOS) os=darwin ;;
  Windows) os=windows ;;
  *) os="" ;;
esac
case "${RUNNER_ARCH:-}" in
  X64) arch=amd64 ;;
  ARM64) arch=arm64 ;;
  *) arch="" ;;
esac
if [ -z "$os" ] || [ -z "$arch" ]; then
  fail "no runledger build for RUNNER_OS=${RUNNER_OS:-<unset>} RUNNER_ARCH=${RUNNER_ARCH:-<unset>}: releases are built for Linux, macOS and Windows on X64 and ARM64"
fi
for var in RUNNER_TOOL_CACHE RUNNER_TEMP GITHUB_PATH GITHUB_OUTPUT; do
  [ -n "${!var:-}" ] || fail "$var is unset: this script runs as a step of a GitHub Actions job (setup/action.yml)"
done

# Git Bash takes C:\… paths, but GITHUB_PATH wants the native form back.
unix_path() { if command -v cygpath >/dev/null; then cygpath -u "$1"; else printf '%s\n' "$1"; fi; }
native_path() { if command -v cygpath >/dev/null; then cygpath -w "$1"; else printf '%s\n' "$1"; fi; }

plain=${version#v}
exe=runledger
ext=tar.gz
if [ "$os" = windows ]; then
  exe=runledger.exe
  ext=zip
fi
archive="runledger_${plain}_${os}_${arch}.${ext}"
# The tool cache's own layout (<tool>/<version>/<arch>, and <arch>.complete
# once whole), as actions/tool-cache writes it.
cache_arch=$(printf '%s' "$RUNNER_ARCH" | tr '[:upper:]' '[:lower:]')
cache_version_dir="$(unix_path "$RUNNER_TOOL_CACHE")/runledger/$plain"
dest="$cache_version_dir/$cache_arch"

finish() {
  native=$(native_path "$dest")
  echo "$native" >> "$GITHUB_PATH"
  {
    echo "version=$version"
    echo "path=$native"
  } >> "$GITHUB_OUTPUT"
}

if [ -f "$cache_version_dir/$cache_arch.complete" ] && [ -x "$dest/$exe" ]; then
  echo "runledger $version: from the tool cache, $dest"
  finish
  exit 0
fi

base=${RUNLEDGER_DOWNLOAD_BASE:-https://github.com/runledger/runledger/releases/download}
tmp=$(mktemp -d "$(unix_path "$RUNNER_TEMP")/runledger-setup.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

fetch() { # fetch FILE: $base/$version/FILE into $tmp/FILE
  local url="$base/$version/$1" code
  # No token: public release downloads need none and are not rate limited
  # as the API is; a private repository's assets would need the API's
  # asset endpoint, which this does not claim to support.
  code=$(curl -sSL --retry 3 --retry-connrefused -o "$tmp/$1" -w '%{http_code}' "$url") ||
    fail "download $url failed (curl exit $?)"
  [ "$code" = 200 ] || fail "download $url: HTTP $code (is $version a runledger release with a $RUNNER_OS $RUNNER_ARCH build?)"
}

fetch checksums.txt
fetch "$archive"

# Chosen here, not inside $(…), where fail's message would be captured.
if command -v sha256sum >/dev/null; then
  sha256() { sha256sum "$1" | cut -d' ' -f1; }
elif command -v shasum >/dev/null; then
  sha256() { shasum -a 256 "$1" | cut -d' ' -f1; }
else
  fail "neither sha256sum nor shasum is on PATH: cannot check $archive"
fi
# checksums.txt lines are "<sha256>  <file name>".
want=$(awk -v f="$archive" '$2 == f { print $1 }' "$tmp/checksums.txt")
[ -n "$want" ] || fail "checksums.txt of $version has no entry for $archive: refusing to install an unchecked archive"
got=$(sha256 "$tmp/$archive")
[ "$got" = "$want" ] || fail "refusing $archive: its sha256 is $got, checksums.txt of $version says $want"

mkdir -p "$tmp/x"
if [ "$ext" = zip ]; then
  # Git for Windows ships unzip; Windows' own tar.exe (bsdtar) reads zip too.
  if command -v unzip >/dev/null; then
    unzip -q "$tmp/$archive" -d "$tmp/x"
  elif [ -x "${SYSTEMROOT:-C:/Windows}/System32/tar.exe" ]; then
    "${SYSTEMROOT:-C:/Windows}/System32/tar.exe" -xf "$tmp/$archive" -C "$tmp/x"
  else
    fail "cannot extract $archive: neither unzip nor Windows' tar.exe is available"
  fi
else
  tar -xzf "$tmp/$archive" -C "$tmp/x"
fi
[ -f "$tmp/x/$exe" ] || fail "$archive holds no $exe at its root"
chmod +x "$tmp/x/$exe"
printed=$("$tmp/x/$exe" version) || fail "the extracted $exe does not run on this runner ($RUNNER_OS $RUNNER_ARCH)"
[ "$printed" = "runledger $version" ] || fail "the extracted $exe says \"$printed\", want \"runledger $version\""

# Into the cache only once checked and runnable; the .complete marker last,
# so a half-written directory is never reused.
mkdir -p "$cache_version_dir"
rm -rf "$dest" "$cache_version_dir/$cache_arch.complete"
mv "$tmp/x" "$dest"
touch "$cache_version_dir/$cache_arch.complete"
echo "runledger $version: installed in $dest"
finish
