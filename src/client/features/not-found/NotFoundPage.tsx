import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import './not-found.css';

/** Spec section 2: the not-found screen, its two texts and three links to /. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <main className="not-found">
      <div className="not-found-card">
        <h1>{t('notfound.title')}</h1>
        <p className="not-found-lead">{t('notfound.lead')}</p>
        <ul className="not-found-links">
          <li>
            <Link to="/">
              <i className="pi pi-question-circle" aria-hidden="true" /> {t('notfound.faq')}
            </Link>
          </li>
          <li>
            <Link to="/">
              <i className="pi pi-info-circle" aria-hidden="true" /> {t('notfound.solution')}
            </Link>{' '}
            <span className="not-found-note">{t('notfound.contact')}</span>
          </li>
          <li>
            <Link to="/">
              <i className="pi pi-lock" aria-hidden="true" /> {t('notfound.permission')}
            </Link>
          </li>
        </ul>
      </div>
    </main>
  );
}
