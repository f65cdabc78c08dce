#!/usr/bin/env bash
# clang-format (the style in .clang-format) over the project's tracked C/C++
# sources, or over the files named (paths from the repository root, as
# pre-commit passes them, or absolute).  `scripts/format.sh --check [FILE...]`
# changes nothing: it lists the files that differ from their formatted selves
# and exits 1 if any do (CI and the pre-commit hook run it).  tests/data/
# holds fixtures copied from other tools and is left as it is.
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
if ! command -v clang-format >/dev/null; then
  echo "format: error: clang-format is not installed (scripts/setup.sh lint installs it)" >&2
  exit 2
fi

style="$(pwd)/.clang-format"
if (($#)); then files=("$@"); else mapfile -t files < <(git ls-files); fi
sources=()
for f in "${files[@]}"; do
  case "$f" in tests/data/*) continue ;; *.cc | *.h | *.cu) sources+=("$f") ;; esac
done
((${#sources[@]})) || exit 0

if ((!check)); then
  printf '%s\0' "${sources[@]}" | xargs -0 -n 16 -P "$(nproc)" clang-format -i "--style=file:$style"
  exit 0
fi
mapfile -t differ < <(printf '%s\0' "${sources[@]}" |
  xargs -0 -n 16 -P "$(nproc)" sh -c 'for f; do clang-format "--style=file:$0" "$f" | cmp -s - "$f" || echo "$f"; done' "$style" |
  sort)
if ((${#differ[@]})); then
  echo "format: ${#differ[@]} of ${#sources[@]} files differ from .clang-format (scripts/format.sh formats them):" >&2
  printf '  %s\n' "${differ[@]}" >&2
  exit 1
fi
echo "format: ${#sources[@]} files as .clang-format has them"
