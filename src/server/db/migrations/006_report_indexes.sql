-- Indexes for report lookups that go through a foreign key (eft-search finds an EFT's digital payment).
CREATE INDEX IF NOT EXISTS digital_payments_eft ON digital_payments (eft_no);
CREATE INDEX IF NOT EXISTS reallocations_psgn ON reallocations (psgn_id);
CREATE INDEX IF NOT EXISTS checking_events_psgn ON checking_events (psgn_id);
