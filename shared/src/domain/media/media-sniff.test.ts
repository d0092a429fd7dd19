import { describe, expect, it } from "vitest";
import { isInlineSafe, messageKindOf, sniffMedia, uploadRefusal, withDeclaredAv } from "./media-sniff";

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? Array.from(new TextEncoder().encode(p)) : p)));
const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], "IHDR");
const JPEG = bytes([0xff, 0xd8, 0xff, 0xe0, 0, 16], "JFIF");
const SVG = bytes(`<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>fetch('/x')</script></svg>`);

describe("sniffMedia", () => {
  it("tells raster images, audio and video by their first bytes, whatever the name says", () => {
    expect(sniffMedia(PNG, "foto.svg")).toEqual({ mime: "image/png", kind: "image", ext: "png" });
    expect(sniffMedia(JPEG, "x.exe").mime).toBe("image/jpeg");
    expect(sniffMedia(bytes("GIF89a", [1, 0, 1, 0])).mime).toBe("image/gif");
    expect(sniffMedia(bytes("RIFF", [0, 0, 0, 0], "WEBPVP8 ")).mime).toBe("image/webp");
    expect(sniffMedia(bytes("OggS", [0, 2])).mime).toBe("audio/ogg");
    expect(sniffMedia(bytes("RIFF", [0, 0, 0, 0], "WAVEfmt ")).mime).toBe("audio/wav");
    expect(sniffMedia(bytes("ID3", [3, 0])).mime).toBe("audio/mpeg");
    expect(sniffMedia(bytes([0xff, 0xfb, 0x90, 0x64])).mime).toBe("audio/mpeg");
    expect(sniffMedia(bytes([0, 0, 0, 0x20], "ftypM4A ", [0, 0, 0, 0])).mime).toBe("audio/mp4");
    expect(sniffMedia(bytes([0, 0, 0, 0x20], "ftypisom", [0, 0, 2, 0])).mime).toBe("video/mp4");
    expect(sniffMedia(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f])).mime).toBe("video/webm");
  });

  it("calls SVG, HTML and XML active, even behind an image's name or a byte-order mark", () => {
    expect(sniffMedia(SVG, "foto.png")).toEqual({ mime: "image/svg+xml", kind: "active", ext: "svg" });
    expect(sniffMedia(bytes([0xef, 0xbb, 0xbf], "  <svg><script>x</script></svg>")).kind).toBe("active");
    expect(sniffMedia(bytes("<!DOCTYPE html><p>oi</p>"), "nota.txt")).toMatchObject({ mime: "text/html", kind: "active" });
    expect(sniffMedia(bytes("Olá\n<script>alert(1)</script>"), "leia.txt")).toMatchObject({ kind: "active" });
    expect(sniffMedia(bytes('<?xml version="1.0"?><nfeProc/>'), "nfe.xml")).toMatchObject({ mime: "application/xml", kind: "active" });
  });

  it("documents: PDF, Office by container and name, plain text and CSV", () => {
    expect(sniffMedia(bytes("%PDF-1.7\n")).mime).toBe("application/pdf");
    expect(sniffMedia(bytes("PK", [3, 4, 20, 0]), "contrato.docx").mime).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    expect(sniffMedia(bytes("PK", [3, 4, 20, 0]), "fotos.zip").mime).toBe("application/zip");
    expect(sniffMedia(bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), "planilha.xls").mime).toBe("application/vnd.ms-excel");
    expect(sniffMedia(bytes("nome;numero\nAna;5511999990000\n"), "lista.csv")).toEqual({ mime: "text/csv; charset=utf-8", kind: "document", ext: "csv" });
    expect(sniffMedia(bytes("alert(document.cookie)"), "x.js")).toEqual({ mime: "text/plain; charset=utf-8", kind: "document", ext: "txt" });
  });

  it("executables, empty files and unknown binaries", () => {
    expect(sniffMedia(bytes("MZ", [0x90, 0, 3]), "foto.jpg").kind).toBe("executable");
    expect(sniffMedia(bytes([0x7f], "ELF", [2, 1])).kind).toBe("executable");
    expect(sniffMedia(bytes("#!/bin/sh\nrm -rf /\n"), "x.txt").kind).toBe("executable");
    expect(sniffMedia(new Uint8Array(0), "foto.png").kind).toBe("empty");
    expect(sniffMedia(bytes([1, 2, 3, 0, 200, 7]), "foto.png").kind).toBe("unknown");
  });
});

describe("what goes where", () => {
  it("only inline-safe types are shown inline; markup never is", () => {
    expect(isInlineSafe("image/png")).toBe(true);
    expect(isInlineSafe("video/mp4")).toBe(true);
    expect(isInlineSafe("image/svg+xml")).toBe(false);
    expect(isInlineSafe("text/html; charset=utf-8")).toBe(false);
    expect(isInlineSafe("application/pdf")).toBe(false);
  });

  it("an SVG sent as a message is a document, a PNG an image, a webp a sticker", () => {
    expect(messageKindOf(sniffMedia(SVG))).toBe("document");
    expect(messageKindOf(sniffMedia(PNG))).toBe("image");
    expect(messageKindOf({ mime: "image/webp" })).toBe("sticker");
    expect(messageKindOf({ mime: "audio/ogg" })).toBe("audio");
    expect(messageKindOf({ mime: "application/pdf" })).toBe("document");
  });

  it("a WebM or MP4 declared as audio is audio (a browser's voice recording); never turns markup into media", () => {
    const webm = sniffMedia(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f]));
    expect(withDeclaredAv(webm, "audio/webm;codecs=opus")).toEqual({ mime: "audio/webm", kind: "audio", ext: "webm" });
    expect(withDeclaredAv(webm, "video/webm")).toEqual(webm);
    expect(withDeclaredAv(sniffMedia(SVG), "audio/webm")).toMatchObject({ kind: "active" });
    expect(messageKindOf(withDeclaredAv(webm, "audio/webm"))).toBe("audio");
  });

  it("allow-lists per destination", () => {
    const exe = sniffMedia(bytes("MZ", [0x90]));
    expect(uploadRefusal(exe, "message")).toBe("ERR_INVALID_MEDIA_TYPE");
    expect(uploadRefusal(sniffMedia(new Uint8Array(0)), "message")).toBe("ERR_EMPTY_FILE");
    expect(uploadRefusal(sniffMedia(bytes([1, 2, 0, 9])), "message")).toBe("ERR_INVALID_MEDIA_TYPE");
    expect(uploadRefusal(sniffMedia(SVG), "message")).toBeNull();
    expect(uploadRefusal(sniffMedia(bytes("%PDF-1.4")), "message")).toBeNull();
    expect(uploadRefusal(sniffMedia(SVG), "logo")).toBeNull();
    expect(uploadRefusal(sniffMedia(JPEG), "logo")).toBe("ERR_INVALID_MEDIA_TYPE");
    expect(uploadRefusal(sniffMedia(JPEG), "announcement")).toBeNull();
    expect(uploadRefusal(sniffMedia(SVG), "announcement")).toBe("ERR_INVALID_MEDIA_TYPE");
    expect(uploadRefusal(sniffMedia(bytes("GIF89a")), "announcement")).toBe("ERR_INVALID_MEDIA_TYPE");
  });
});
