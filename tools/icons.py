"""Draw the installable app's icons (src/tiergarten/web/icons/*.png) with Pillow: two cards on
the felt, the front one with a red heart. Run again after changing the design:

    .venv/bin/python tools/icons.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parents[1] / "src" / "tiergarten" / "web" / "icons"
FELT, CREAM, INK, RED, GOLD = "#24553f", "#fffdf7", "#1d1d1d", "#c0262d", "#f2b632"


def card(size: int, scale: float) -> Image.Image:
    w, h = int(size * 0.42 * scale), int(size * 0.58 * scale)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=int(w * 0.12), fill=CREAM, outline=INK,
                        width=max(2, size // 128))
    return img


def heart(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    d.ellipse((cx - r, cy - r * 0.9, cx, cy + r * 0.1), fill=RED)
    d.ellipse((cx, cy - r * 0.9, cx + r, cy + r * 0.1), fill=RED)
    d.polygon([(cx - r * 0.97, cy - r * 0.25), (cx + r * 0.97, cy - r * 0.25), (cx, cy + r)],
              fill=RED)


def icon(size: int, maskable: bool) -> Image.Image:
    img = Image.new("RGBA", (size, size), FELT)
    d = ImageDraw.Draw(img)
    if not maskable:
        img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
        d = ImageDraw.Draw(img)
        d.rounded_rectangle((0, 0, size - 1, size - 1), radius=size // 6, fill=FELT)
    scale = 0.8 if maskable else 1.0  # a maskable icon keeps its picture in the safe circle
    back = card(size, scale)
    d2 = ImageDraw.Draw(back)
    bw, bh = back.size
    d2.rounded_rectangle((bw * 0.12, bh * 0.1, bw * 0.88, bh * 0.9), radius=int(bw * 0.08),
                         fill=GOLD)
    back = back.rotate(14, expand=True, resample=Image.Resampling.BICUBIC)
    img.alpha_composite(back, (int(size * 0.42 - back.size[0] / 2 + size * 0.08),
                               int(size / 2 - back.size[1] / 2 - size * 0.02)))
    front = card(size, scale).rotate(-10, expand=True, resample=Image.Resampling.BICUBIC)
    fd = ImageDraw.Draw(front)
    heart(fd, front.size[0] / 2, front.size[1] / 2, size * 0.11 * scale)
    img.alpha_composite(front, (int(size * 0.42 - front.size[0] / 2),
                                int(size / 2 - front.size[1] / 2 + size * 0.02)))
    return img


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        icon(size, False).save(OUT / f"icon-{size}.png", optimize=True)
    icon(512, True).save(OUT / "icon-512-maskable.png", optimize=True)


if __name__ == "__main__":
    main()
