import { Link } from 'react-router-dom';

export function NotFoundPage() {
  return (
    <main>
      <h1>404 Not Found</h1>
      <p>Requested resource is not available.</p>
      <ul>
        <li><Link to="/">Frequently Asked Questions</Link></li>
        <li><Link to="/">Solution Center</Link> (Contact to HHT Team)</li>
        <li><Link to="/">You dont have permission to view this page</Link></li>
      </ul>
    </main>
  );
}
