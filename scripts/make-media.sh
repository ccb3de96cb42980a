#!/usr/bin/env bash
# Regenerates the self-hosted decorative media of the sales hub (spec §1
# "looping muted hero videos", §2 "Sales hub (/sales)"):
#
#   public/media/sales-hero.webm        VP9, no audio
#   public/media/sales-hero.mp4         H.264 High, yuv420p, +faststart, no audio
#   public/media/sales-hero-poster.webp poster frame (also the reduced-motion image)
#
# Everything is synthesised by ffmpeg from lavfi sources (no input file, no
# download): an animated "plasma" (a sum of sines, computed by `geq`) drawn as
# glowing contour lines, then coloured with `curves` into the site's palette
# (slate-950 background, sky/cyan lines) and vignetted.
#
# Every term of the plasma depends on time only through t = 2πT/DURATION (or a
# whole multiple of it), so the last frame flows into the first one: the loop
# is seamless.
#
# Usage: scripts/make-media.sh   (needs ffmpeg with libvpx-vp9, libx264, libwebp)
set -euo pipefail

cd "$(dirname "$0")/.."
OUT=public/media
mkdir -p "$OUT"

W=960          # 16:9, displayed at most ~560 CSS px wide (half of the 6xl container)
H=540
FPS=24
DURATION=8     # seconds; the loop period
POSTER_AT=2    # seconds into the loop for the poster frame

ENCODERS=$(ffmpeg -hide_banner -encoders 2>/dev/null)
for encoder in libvpx-vp9 libx264 libwebp; do
  if ! grep -q " $encoder " <<<"$ENCODERS"; then
    echo "ffmpeg lacks the $encoder encoder" >&2
    exit 1
  fi
done

# ld(0) = t (phase, 0 → 2π over the loop); ld(1) = plasma value in [-4, 4].
# Luma = soft glow (22 %) + thin contour lines where cos(2.2·v) = ±1 (78 %).
PLASMA="st(0,2*PI*T/${DURATION});\
st(1,sin(X/97+ld(0))+sin(Y/71-ld(0))+sin((X+Y)/131+2*ld(0))\
+sin(hypot(X-W/2-120*cos(ld(0)),Y-H/2-80*sin(ld(0)))/53-ld(0)));\
255*(0.22*(ld(1)+4)/8+0.78*pow(abs(cos(ld(1)*2.2)),28))"

# Grey → palette: black maps to ≈ slate-950 (#020617), white to a light cyan.
COLOUR="curves=r='0/0.008 0.5/0.04 1/0.36':g='0/0.024 0.5/0.26 1/0.86':b='0/0.09 0.5/0.46 1/1',vignette=PI/4"

FILTER="color=c=black:s=${W}x${H}:r=${FPS}:d=${DURATION},format=gray,geq=lum='${PLASMA}',format=gbrp,${COLOUR},format=yuv420p"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

echo "1/4 rendering the master (lossless, ${W}x${H}, ${DURATION}s at ${FPS} fps)…"
ffmpeg -hide_banner -loglevel error -y -f lavfi -i "$FILTER" -c:v ffv1 "$TMP/master.mkv"

echo "2/4 VP9 (two-pass constrained quality)…"
VP9=(-c:v libvpx-vp9 -b:v 600k -crf 38 -row-mt 1 -tile-columns 1 -g $((FPS * DURATION)) -pix_fmt yuv420p -an)
ffmpeg -hide_banner -loglevel error -y -i "$TMP/master.mkv" "${VP9[@]}" -pass 1 -passlogfile "$TMP/vp9" -deadline good -cpu-used 4 -f null /dev/null
ffmpeg -hide_banner -loglevel error -y -i "$TMP/master.mkv" "${VP9[@]}" -pass 2 -passlogfile "$TMP/vp9" -deadline good -cpu-used 1 \
  -map_metadata -1 "$OUT/sales-hero.webm"

echo "3/4 H.264…"
ffmpeg -hide_banner -loglevel error -y -i "$TMP/master.mkv" \
  -c:v libx264 -preset veryslow -crf 27 -maxrate 700k -bufsize 1400k -profile:v high -level 4.0 \
  -pix_fmt yuv420p -g $((FPS * 2)) -an -movflags +faststart -map_metadata -1 "$OUT/sales-hero.mp4"

echo "4/4 poster (WebP)…"
ffmpeg -hide_banner -loglevel error -y -ss "$POSTER_AT" -i "$TMP/master.mkv" -frames:v 1 \
  -c:v libwebp -quality 72 -compression_level 6 -preset picture "$OUT/sales-hero-poster.webp"

ls -l "$OUT"/sales-hero*
