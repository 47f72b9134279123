#!/usr/bin/env bash
# Writes the option tables of docs/command-line.md again from the commands' option tables: the
# lines between its "<!-- BEGIN option tables" and "<!-- END option tables -->" comments are
# replaced by what `cartrender docs-tables` makes (a table per command with options of its own).
# CommandTablesTests fails while the file differs from what this writes.
#
# Usage: Scripts/command-tables.sh       (needs a built cartrender: .build/debug/cartrender, as
#        `swift build` makes it; set BIN= to choose another)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/debug/cartrender}
doc=docs/command-line.md
tmp=$(mktemp "$doc.XXXXXX")
trap 'rm -f "$tmp"' EXIT
"$BIN" docs-tables < "$doc" > "$tmp"
if cmp -s "$tmp" "$doc"; then
    echo "$doc: the option tables are up to date"
else
    chmod --reference="$doc" "$tmp"
    mv "$tmp" "$doc"
    echo "$doc: option tables written again"
fi
