#!/usr/bin/env bash
# The files the repository cites must exist.  Scans the tracked files (or the
# files named, relative to ROOT) for repository paths -- core/prove/prove.h,
# docs/gpu.md, scripts/setup.sh, tests/data/ -- and bare NAME.md, resolved
# against the citing file's folder and then the root, and for Markdown links
# (resolved against the file's folder), and prints FILE:LINE: error: for each
# that names nothing.  Exit 1 if any does.  ctest (tests/test_references.cc)
# and the pre-commit hook run it.
#   scripts/check_references.sh [-C ROOT] [FILE...]
# Not citations: globs (cli/cmd_*.cc), ranges (core/base..core/gemm),
# placeholders (core/program/NAME/, tests/data/mmasim/ARCH.mmav, core/x/),
# paths outside the repository (../shared/DESIGN.md), names a test makes up
# to be missing (examples/no_such_file.txt), a bare lower-case NAME.md outside
# Markdown (a file a test writes) and the other projects' paths below.  A
# path without a suffix may name a folder or a component (core/base/json for
# json.h and json.cc).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ "${1:-}" = -C ]; then root="$2"; shift 2; fi
cd "$root"

# Paths of other projects that look like ours (TVM's tests/python/...).
foreign='^tests/python/'
placeholder='(^|/)(NAME|ARCH|x)(/|\.|$)'
tops='\.ci|bench|cli|cmake|core|cuda|docs|examples|scripts|sim|tests'

if (($#)); then
  files=("$@")
elif git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files --cached --others --exclude-standard)
else
  mapfile -t files < <(find . -path ./.git -prune -o -path './build*' -prune -o -type f -print | sed 's|^\./||')
fi
scan=()
for f in "${files[@]}"; do
  case "$f" in tests/data/* | *.svg | *.png) continue ;; esac
  [ -f "$f" ] && scan+=("$f")
done
((${#scan[@]})) || exit 0

bad=0
declare -A reported  # a Markdown link is also a bare NAME.md: report it once
# $1 FILE, $2 LINE, $3 the cited path
report() {
  [ -n "${reported["$1:$2:$3"]:-}" ] && return
  reported["$1:$2:$3"]=1
  echo "$1:$2: error: cites $3, which does not exist" >&2
  bad=$((bad + 1))
}

# Repository paths and bare NAME.md: FILE:LINE:TEXT, where TEXT may start with
# the character before the path and end with a glob character after it.
while IFS= read -r hit; do
  file=${hit%%:*}; rest=${hit#*:}; line=${rest%%:*}; path=${rest#*:}
  path=${path#[^A-Za-z0-9_.]}
  case "$path" in *[*{\<]) continue ;; esac
  path=${path%%[.,]}; path=${path%%[.,]}
  [[ "$path" =~ $placeholder || "$path" =~ $foreign || "$path" == *..* || "$path" == *no_such* ]] && continue
  if [[ "$path" == */* ]]; then
    [ -e "$path" ] || [ -e "$path.h" ] || [ -e "$path.cc" ] || report "$file" "$line" "$path"
  elif [[ "$file" == *.md || "$path" =~ ^[A-Z_]+\.md$ ]]; then
    [ -e "$(dirname "$file")/$path" ] || [ -e "$path" ] || report "$file" "$line" "$path"
  fi
done < <(grep -HnoE "(^|[^A-Za-z0-9_./-])((($tops)/[A-Za-z0-9_./-]*)|[A-Za-z0-9_-]+\.md)[*{<]?" -- "${scan[@]}" || true)

# Markdown links: [text](target), target relative to the file's folder.
md=()
for f in "${scan[@]}"; do [[ "$f" == *.md ]] && md+=("$f"); done
if ((${#md[@]})); then
  while IFS= read -r hit; do
    file=${hit%%:*}; rest=${hit#*:}; line=${rest%%:*}; target=${rest#*:}
    target=${target#](}; target=${target%)}; target=${target%%#*}
    case "$target" in '' | *://* | mailto:*) continue ;; esac
    [ -e "$(dirname "$file")/$target" ] || report "$file" "$line" "$target"
  done < <(grep -HnoE '\]\([^) ]+\)' -- "${md[@]}" || true)
fi

if ((bad)); then
  echo "references: $bad cited paths do not exist" >&2
  exit 1
fi
echo "references: every path cited in ${#scan[@]} files exists"
