import { describe, expect, it } from "vitest";
import { isOggOpus, isVoiceNote } from "./message";

describe("voice notes (ADR 0015)", () => {
  it("a composer recording in Ogg/Opus is a voice note", () => {
    expect(isVoiceNote("audio-1763800000000.ogg", "audio/ogg; codecs=opus")).toBe(true);
    expect(isVoiceNote("audio-1763800000000.ogg", "audio/ogg")).toBe(true);
  });

  it("a browser recording in WebM or MP4 goes as plain audio (no transcoder)", () => {
    expect(isVoiceNote("audio-1763800000000.webm", "audio/webm;codecs=opus")).toBe(false);
    expect(isVoiceNote("audio-1763800000000.m4a", "audio/mp4")).toBe(false);
  });

  it("an uploaded audio file is never a voice note, whatever its format", () => {
    expect(isVoiceNote("musica.mp3", "audio/mpeg")).toBe(false);
    expect(isVoiceNote("recado.ogg", "audio/ogg; codecs=opus")).toBe(false);
  });

  it("recognises Opus in Ogg only", () => {
    expect(isOggOpus("audio/ogg; codecs=opus")).toBe(true);
    expect(isOggOpus("audio/opus")).toBe(true);
    expect(isOggOpus("audio/ogg; codecs=vorbis")).toBe(false);
    expect(isOggOpus("audio/mpeg")).toBe(false);
    expect(isOggOpus("audio/webm;codecs=opus")).toBe(false);
  });
});
