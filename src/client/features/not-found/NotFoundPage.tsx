import { Link } from 'react-router-dom';
import './not-found.css';

/** Spec section 2: the not-found screen, its two texts and three links to /. */
export function NotFoundPage() {
  return (
    <main className="not-found">
      <div className="not-found-card">
        <h1>404 Not Found</h1>
        <p className="not-found-lead">Requested resource is not available.</p>
        <ul className="not-found-links">
          <li>
            <Link to="/">
              <i className="pi pi-question-circle" aria-hidden="true" /> Frequently Asked Questions
            </Link>
          </li>
          <li>
            <Link to="/">
              <i className="pi pi-info-circle" aria-hidden="true" /> Solution Center
            </Link>{' '}
            <span className="not-found-note">(Contact to HHT Team)</span>
          </li>
          <li>
            <Link to="/">
              <i className="pi pi-lock" aria-hidden="true" /> You dont have permission to view this page
            </Link>
          </li>
        </ul>
      </div>
    </main>
  );
}
