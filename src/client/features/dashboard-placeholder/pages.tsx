import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';

/** Time this page instance loaded its data: a new value after every (re)load, including a same-URL navigation. */
function useLoadStamp(): string {
  const [stamp] = useState(() => new Date().toISOString());
  return stamp;
}

export function DashboardPage() {
  const stamp = useLoadStamp();
  return (
    <section className="card" data-loaded-at={stamp}>
      <h1>Dashboard</h1>
      <p>Welcome to the IR-HHT Portal. Choose a report from the menu.</p>
      <p>
        <Link to="#summary">Summary</Link>
      </p>
      <h2 id="summary">Summary</h2>
      <p>The dashboard cards appear here.</p>
    </section>
  );
}

export function ReportPlaceholderPage() {
  const { reportId = '' } = useParams();
  const stamp = useLoadStamp();
  return (
    <section className="card" data-loaded-at={stamp}>
      <h1>{reportId}</h1>
      <p>This report opens here.</p>
    </section>
  );
}

export function UtilitiesPage() {
  const stamp = useLoadStamp();
  return (
    <section className="card" data-loaded-at={stamp}>
      <h1>Utilities</h1>
      <p>Utilities appear here.</p>
    </section>
  );
}
