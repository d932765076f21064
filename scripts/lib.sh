# Shared by the scripts: where we are, and a way to say what is happening.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
say() { printf '[tool-stub] %s\n' "$*" >&2; }
