// The format writers live with the demo (which shows them); tests use the same ones.
export * from '@/lib/demo/writers';
