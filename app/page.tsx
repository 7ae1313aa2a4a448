export default function HomePage() {
  return (
    <main style={{ padding: 24 }}>
      <h1>Predmkt</h1>
      <p>Prediction-market analytics. The API reference is at <a href="/api/openapi.json">/api/openapi.json</a>.</p>
    </main>
  );
}
