#!/usr/bin/env bash
# Renders a report's SVG plot to PNG with headless chromium (Debian's
# chromium, as report's browser test uses), for a page that shows a plot
# as a picture (the README). Usage, from the repository's root:
#   docs/measurements/render_plot.sh docs/reports/compare-chi2-8bit/error-linf.svg docs/compare-chi2-8bit-error-linf.png
set -euo pipefail
svg=$(realpath "$1")
out=$(realpath -m "$2")
# The plot's size in CSS pixels: its width and height in pt × 4/3.
read -r w h < <(sed -n 's/.*<svg width="\([0-9.]*\)pt" height="\([0-9.]*\)pt".*/\1 \2/p' "$svg" | head -1)
W=$(awk -v v="$w" 'BEGIN { printf "%d", v * 4 / 3 + 0.5 }')
H=$(awk -v v="$h" 'BEGIN { printf "%d", v * 4 / 3 + 0.5 }')
page=$(mktemp --suffix=.html)
trap 'rm -f "$page"' EXIT
printf '<!DOCTYPE html><html><body style="margin:0"><img src="file://%s" width="%d" height="%d"></body></html>\n' "$svg" "$W" "$H" >"$page"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=2 \
  --window-size="$W,$H" --screenshot="$out" "file://$page" 2>/dev/null
echo "$out: ${W}×${H} CSS pixels at scale 2"
