import { useRef, useState } from "react";
import { AUDIO_BITRATE } from "@atende/shared/constants/business";

/** Microphone recording through MediaRecorder: start, then stop (giving the blob) or cancel. */
export function useAudioRecorder() {
  const [recording, setRecording] = useState(false);
  const recorder = useRef<MediaRecorder | null>(null);
  const chunks = useRef<Blob[]>([]);

  const release = () => {
    recorder.current?.stream.getTracks().forEach((track) => track.stop());
    recorder.current = null;
    setRecording(false);
  };

  const start = async () => {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    const rec = new MediaRecorder(stream, { audioBitsPerSecond: AUDIO_BITRATE * 1000 });
    chunks.current = [];
    rec.ondataavailable = (e) => e.data.size && chunks.current.push(e.data);
    rec.start();
    recorder.current = rec;
    setRecording(true);
  };

  const stop = () =>
    new Promise<Blob | null>((resolve) => {
      const rec = recorder.current;
      if (!rec) return resolve(null);
      rec.onstop = () => {
        const blob = new Blob(chunks.current, { type: rec.mimeType || "audio/webm" });
        release();
        resolve(blob);
      };
      rec.stop();
    });

  const cancel = () => {
    const rec = recorder.current;
    if (rec && rec.state !== "inactive") {
      rec.onstop = null;
      rec.stop();
    }
    release();
  };

  return { recording, start, stop, cancel };
}
