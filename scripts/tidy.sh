#!/usr/bin/env bash
# clang-tidy (the checks in .clang-tidy) over the project's own .cc files as
# build/ compiles them (build/compile_commands.json: run scripts/build.sh
# first), or over the .cc files named: in batches of a folder's files
# (scripts/tidy_batches.py: the system headers are walked once a batch, not
# once a file), one batch per core in parallel.  Prints each finding once (a
# header's findings come from every file including it) and exits 1 if there
# is any.  CI runs it; .clang-tidy says which checks.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v clang-tidy >/dev/null; then
  echo "tidy: error: clang-tidy is not installed (scripts/setup.sh lint installs it)" >&2
  exit 2
fi
db=build/compile_commands.json
if [ ! -f "$db" ]; then
  echo "tidy: error: $db is missing; run scripts/build.sh first" >&2
  exit 2
fi
# The folders CI holds to it: the library and the program.  sim/ and tests/
# have not had a whole run yet (docs/contributing.md); name their files to
# check them.
dirs="core|cli|cuda|bench"
if (($#)); then
  files=("$@")
else
  # the database's "file" entries under this tree (not build/, and not
  # tests/main.cc: Catch2's main alone, 20 s of its header and none of ours)
  mapfile -t files < <(grep -o '"file": "[^"]*\.cc"' "$db" | sed -e 's|^"file": "||' -e 's|"$||' -e "s|^$(pwd)/||" |
    grep -v -e '^/' -e '^build' -e '^tests/main\.cc$' | grep -E "^($dirs)/" | sort -u)
fi

# The batches and their compile database (build/tidy/).
units=("${files[@]}")
unit_db=build
if command -v python3 >/dev/null; then
  batches=$(scripts/tidy_batches.py "$db" "${files[@]}")  # its failure stops the run (set -e)
  mapfile -t units <<<"$batches"
  unit_db=build/tidy
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
start=$SECONDS
# Results are cached by content (scripts/tidy_keys.py: the file, the
# project headers it includes, its compile command, the tools' versions and
# .clang-tidy), under MMACHECK_TIDY_CACHE (default ~/.cache/mmacheck-tidy),
# so that an unchanged file is not checked again, in this clone or another;
# MMACHECK_TIDY_CACHE=off checks every file.
cache="${MMACHECK_TIDY_CACHE:-$HOME/.cache/mmacheck-tidy}"
todo=()
hits=0
if [ "$cache" != off ] && mkdir -p "$cache" 2>/dev/null && command -v python3 >/dev/null; then
  while read -r key file; do
    if [ -f "$cache/$key.log" ]; then
      cp "$cache/$key.log" "$out/$(echo "$file" | tr / _).log"
      hits=$((hits + 1))
    else
      todo+=("$file")
      echo "$key" >"$out/$(echo "$file" | tr / _).key"
    fi
  done < <(scripts/tidy_keys.py "$unit_db/compile_commands.json" "${units[@]}")
else
  todo=("${units[@]}")
fi
# GCC's flags in the database: clang need not know all of them.  Headers
# count when they are the project's (not CUDA's /usr/local/cuda/...).
if ((${#todo[@]})); then
  printf '%s\0' "${todo[@]}" | xargs -0 -P "$(nproc)" -I{} sh -c \
    'clang-tidy -p "$4" --quiet "--header-filter=$3" --extra-arg=-Wno-unknown-warning-option "$1" \
       >"$2/$(echo "$1" | tr / _).log" 2>&1 || true' _ {} "$out" "^$(pwd)/(core|sim|cuda|cli|tests|bench)/" "$unit_db"
fi
for k in "$out"/*.key; do
  [ -e "$k" ] || continue
  cp "${k%.key}.log" "$cache/$(cat "$k").log" 2>/dev/null || true
done
# A finding is its first line, FILE:LINE:COL: warning|error: ... [check].
findings=$(cat "$out"/*.log | grep -E '^[^ ].*:[0-9]+:[0-9]+: (warning|error): ' | sed "s|^$(pwd)/||" | sort -u || true)
elapsed=$((SECONDS - start))
cached=""
((hits)) && cached=", $hits of ${#units[@]} batches cached"
if [ -n "$findings" ]; then
  echo "$findings"
  echo "tidy: $(echo "$findings" | wc -l) findings in ${#files[@]} files, ${#units[@]} batches (${elapsed} s$cached)" >&2
  exit 1
fi
echo "tidy: ${#files[@]} files clean, ${#units[@]} batches (${elapsed} s$cached)"
