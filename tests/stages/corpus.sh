# Sourced by the stage tests (all_stages.sh, kernels_match_ptx.sh).
# corpus_programs DIR|FILE...: the .fut programs under each DIR, and each FILE, sorted,
# NUL-separated.
corpus_programs() {
  for p in "$@"; do
    if [ -d "$p" ]; then find "$p" -name '*.fut' -print0; else printf '%s\0' "$p"; fi
  done | sort -z
}
