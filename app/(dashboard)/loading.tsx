// Shown while a page's server-side first paint is on its way (navigation streams this immediately).
export default function Loading() {
  return (
    <div className="page-loading" role="status" aria-busy="true" aria-label="Loading">
      <div className="skeleton-line" style={{ width: "40%", height: 28 }} />
      <div className="skeleton-block">
        {Array.from({ length: 8 }, (_, i) => (
          <div key={i} className="skeleton-line" />
        ))}
      </div>
    </div>
  );
}
