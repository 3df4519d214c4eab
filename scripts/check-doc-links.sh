#!/usr/bin/env bash
# Checks the rendered documentation of the library (target/doc/nqueens, from `cargo doc
# --no-deps`): no page shows a code name in literal brackets (`[Name]`, an intra-doc link that
# rustdoc could not make, such as one to a hidden item), no link is left as the path it was
# written with, and no link points at a page that was not generated or at an item (a method,
# a variant) its page does not show, as a hidden one. Redirect pages of re-exports are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

root=target/doc/nqueens
[[ -f $root/index.html ]] || { echo "no $root/index.html: run cargo doc --no-deps first" >&2; exit 2; }

failures=0
while IFS= read -r -d '' page; do
    grep -q 'http-equiv="refresh"' "$page" && continue
    # A code name in literal brackets.
    if grep -qE '\[<code>[^<]*</code>\]' "$page"; then
        grep -oE '\[<code>[^<]*</code>\]' "$page" | sort -u | sed "s|^|$page: unlinked |"
        failures=$((failures + 1))
    fi
    # A link rustdoc left as written (`crate::engine::plan::PLAN_VERSION`): it leads nowhere.
    if grep -qE 'href="[^"]*::[^"]*"' "$page"; then
        grep -oE 'href="[^"]*::[^"]*"' "$page" | sort -u | sed "s|^|$page: unresolved |"
        failures=$((failures + 1))
    fi
    # Relative links to pages of this crate that do not exist.
    dir=$(dirname "$page")
    while IFS= read -r href; do
        target=${href%%#*}
        [[ $target == *://* || $target == javascript:* ]] && continue
        [[ $target == */src/* || $target == src/* ]] && continue
        file=$dir/$target
        [[ -z $target ]] && file=$page
        if [[ ! -f $file ]]; then
            echo "$page: link to a missing page: $href"
            failures=$((failures + 1))
            continue
        fi
        # A link to an item on a page (a method, a variant) that the page does not show: a
        # hidden item.
        if [[ $href == *#* ]]; then
            anchor=${href#*#}
            if [[ $anchor == method.* || $anchor == variant.* || $anchor == structfield.* \
                || $anchor == associatedconstant.* || $anchor == tymethod.* ]] \
                && ! grep -q "id=\"$anchor\"" "$file"; then
                echo "$page: link to an item its page does not show: $href"
                failures=$((failures + 1))
            fi
        fi
    done < <(grep -oE 'href="[^"]*nqueens/[^"]*"|href="[^"./][^":]*\.html[^"]*"|href="#[^"]*"' "$page" | sed -E 's/^href="//; s/"$//' | sort -u)
done < <(find "$root" -name '*.html' -print0)

if ((failures > 0)); then
    echo "the documentation has $failures page(s) with unlinked names or missing link targets" >&2
    exit 1
fi
echo "documentation links: every name linked, every link target present"
