import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';

/** Time this page instance loaded its data: a new value after every (re)load, including a same-URL navigation. */
function useLoadStamp(): string {
  const [stamp] = useState(() => new Date().toISOString());
  return stamp;
}

export function DashboardPage() {
  const { t } = useTranslation();
  const stamp = useLoadStamp();
  return (
    <section className="card" data-loaded-at={stamp}>
      <h1>{t('dashboard.heading')}</h1>
      <p>{t('dashboard.welcome')}</p>
      <p>
        <Link to="#summary">{t('dashboard.summary')}</Link>
      </p>
      <h2 id="summary">{t('dashboard.summary')}</h2>
      <p>{t('dashboard.cardsHere')}</p>
    </section>
  );
}

export function ReportPlaceholderPage() {
  const { t } = useTranslation();
  const { reportId = '' } = useParams();
  const stamp = useLoadStamp();
  return (
    <section className="card" data-loaded-at={stamp}>
      <h1>{reportId}</h1>
      <p>{t('dashboard.reportHere')}</p>
    </section>
  );
}

export function UtilitiesPage() {
  const { t } = useTranslation();
  const stamp = useLoadStamp();
  return (
    <section className="card" data-loaded-at={stamp}>
      <h1>{t('dashboard.utilities')}</h1>
      <p>{t('dashboard.utilitiesHere')}</p>
    </section>
  );
}
