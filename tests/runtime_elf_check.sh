#!/usr/bin/env bash
# tests/runtime_elf_check.sh [DIST] — every ELF file in the built runtime must resolve its
# libraries inside the runtime or to glibc's own, and carry no absolute rpath (a build
# machine path such as /root/.pyenv/... would load whatever sits there on a user's machine).
# Default DIST: python-runtime/dist. Fails (never skips) when the runtime is not built.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIST="${1:-$ROOT/python-runtime/dist}"
if [ ! -f "$DIST/runtime-manifest.json" ]; then
  echo "runtime_elf_check: no runtime at \`$DIST\` (runtime-manifest.json missing): build it with scripts/build-runtime" >&2
  exit 1
fi
DIST="$(cd "$DIST" && pwd -P)"
command -v ldd >/dev/null && command -v readelf >/dev/null \
  || { echo "runtime_elf_check: needs ldd (libc-bin) and readelf (binutils): apt-get install binutils" >&2; exit 1; }

# glibc's own libraries: the only ones the runtime may take from the host.
GLIBC_RE='^(linux-vdso\.so\.1|ld-linux-x86-64\.so\.2|libc\.so\.6|libm\.so\.6|libmvec\.so\.1|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|libutil\.so\.1|libresolv\.so\.2|libanl\.so\.1)$'

passed=0
failed=0
while IFS= read -r -d '' f; do
  [ "$(head -c 4 "$f" | od -An -tx1 | tr -d ' \n')" = "7f454c46" ] || continue
  problems=""
  while IFS= read -r line; do
    name="$(awk '{print $1}' <<<"$line")"
    if [[ "$line" == *"not found"* ]]; then
      problems+="    $name: not found"$'\n'
    elif [[ "$line" == *" => "* ]]; then
      where="$(awk '{print $3}' <<<"$line")"
      real="$(readlink -f "$where")"
      if [[ "$real" != "$DIST"/* ]] && ! [[ "$name" =~ $GLIBC_RE ]]; then
        problems+="    $name => $where: outside the runtime and not glibc's"$'\n'
      fi
    fi
  done < <(env -i PATH=/usr/bin:/bin ldd "$f" 2>&1 | grep -v -E 'statically linked|^\s*/lib64/ld-linux' || true)
  while IFS= read -r rp; do
    IFS=: read -r -a parts <<<"$rp"
    for p in "${parts[@]}"; do
      [[ "$p" == '$ORIGIN'* ]] || problems+="    rpath entry \`$p\` is not relative to \$ORIGIN"$'\n'
    done
  done < <(readelf -d "$f" | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p')
  if [ -n "$problems" ]; then
    echo "FAIL ${f#"$DIST"/}"
    printf '%s' "$problems"
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
done < <(find "$DIST" -type f -print0)

echo "runtime_elf_check: $DIST"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
