#!/usr/bin/env python3
"""An 8-bit RGB or RGBA PNG (not interlaced) to an 8-bit gray one, with the standard library
alone (the course machines need not have Pillow): python3 to_gray.py IN.png OUT.png.
Gray is the ITU-R BT.601 luma of the stored values, 0.299 R + 0.587 G + 0.114 B rounded (the
weights Pillow's convert("L") uses); colour profiles and the other ancillary chunks are
dropped, and alpha is ignored."""
import struct
import sys
import zlib


def chunks(data):
    """(type, body) of each chunk after the signature."""
    at = 8
    while at < len(data):
        (size,) = struct.unpack(">I", data[at : at + 4])
        yield data[at + 4 : at + 8], data[at + 8 : at + 8 + size]
        at += 12 + size


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def unfilter(raw, width, height, bpp):
    """The scanlines with PNG's five filters undone, each width * bpp bytes."""
    stride, rows, prev, at = width * bpp, [], bytearray(width * bpp), 0
    for _ in range(height):
        kind, line = raw[at], bytearray(raw[at + 1 : at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + (0, a, b, (a + b) // 2, paeth(a, b, c))[kind]) & 255
        rows.append(line)
        prev = line
    return rows


def read_rgb(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    idat = b""
    for kind, body in chunks(data):
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    if depth != 8 or colour not in (2, 6) or interlace:
        sys.exit(f"{path}: only 8-bit RGB or RGBA PNGs without interlacing")
    bpp = 3 if colour == 2 else 4
    return width, height, bpp, unfilter(zlib.decompress(idat), width, height, bpp)


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def write_gray(path, width, height, rows):
    """Each row with PNG's Up filter: for the astronaut a quarter smaller than no filter."""
    raw, prev = bytearray(), bytes(width)
    for row in rows:
        raw += b"\x02" + bytes((v - p) & 255 for v, p in zip(row, prev))
        prev = row
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(bytes(raw), 9)))
        f.write(chunk(b"IEND", b""))


def main():
    width, height, bpp, rows = read_rgb(sys.argv[1])
    gray = [
        bytes(
            (299 * r[i] + 587 * r[i + 1] + 114 * r[i + 2] + 500) // 1000
            for i in range(0, width * bpp, bpp)
        )
        for r in rows
    ]
    write_gray(sys.argv[2], width, height, gray)


if __name__ == "__main__":
    main()
