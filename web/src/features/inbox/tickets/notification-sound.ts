/** A short two-tone chime through Web Audio at the saved volume (0..1); silent at 0 or without audio support. */
let ctx: AudioContext | null = null;

export const playNotificationSound = (volume: number) => {
  if (volume <= 0 || typeof AudioContext === "undefined") return;
  try {
    ctx ??= new AudioContext();
    const start = ctx.currentTime;
    for (const [i, freq] of [880, 1320].entries()) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.25 * volume, start + i * 0.15);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.15 + 0.25);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start + i * 0.15);
      osc.stop(start + i * 0.15 + 0.3);
    }
  } catch {
    // autoplay refused before any user gesture: nothing to do
  }
};
