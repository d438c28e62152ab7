export default function HomePage() {
  return <main>Lockboard</main>;
}
