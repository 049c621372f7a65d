/**
 * Zones, divisions, stations, crew lobbies and offices. Real railway codes; the zone/division of a station is
 * the one that administers it. Zones beyond the four of the brief exist because real routes cross them.
 */

export interface ZoneRow {
  zone_code: string;
  name: string;
}
export interface DivisionRow {
  div_code: string;
  zone_code: string;
  name: string;
}
export interface StationRow {
  station_code: string;
  name: string;
  zone_code: string;
  div_code: string;
}
export interface LobbyRow {
  lobby_code: string;
  name: string;
  station_code: string;
  zone_code: string;
  div_code: string;
}
export interface OfficeRow {
  off_code: string;
  off_type: string;
  name: string;
  zone_code: string | null;
  div_code: string | null;
}

export const ZONES: ZoneRow[] = [
  { zone_code: 'NR', name: 'Northern Railway' },
  { zone_code: 'CR', name: 'Central Railway' },
  { zone_code: 'WR', name: 'Western Railway' },
  { zone_code: 'SR', name: 'Southern Railway' },
  { zone_code: 'ER', name: 'Eastern Railway' },
  { zone_code: 'ECR', name: 'East Central Railway' },
  { zone_code: 'NCR', name: 'North Central Railway' },
  { zone_code: 'WCR', name: 'West Central Railway' },
  { zone_code: 'SCR', name: 'South Central Railway' },
];

/** zone -> [division code, name]. */
const DIVISIONS_BY_ZONE: Record<string, [string, string][]> = {
  NR: [['DLI', 'Delhi'], ['UMB', 'Ambala'], ['FZR', 'Firozpur'], ['LKO', 'Lucknow'], ['MB', 'Moradabad']],
  CR: [['BB', 'Mumbai'], ['BSL', 'Bhusaval'], ['NGP', 'Nagpur'], ['PUNE', 'Pune'], ['SUR', 'Solapur']],
  WR: [['BCT', 'Mumbai Central'], ['ADI', 'Ahmedabad'], ['BRC', 'Vadodara'], ['RTM', 'Ratlam'], ['RJT', 'Rajkot']],
  SR: [['MAS', 'Chennai'], ['MDU', 'Madurai'], ['SA', 'Salem'], ['TPJ', 'Tiruchchirappalli'], ['TVC', 'Thiruvananthapuram'], ['PGT', 'Palakkad']],
  ER: [['HWH', 'Howrah'], ['SDAH', 'Sealdah'], ['ASN', 'Asansol'], ['MLDT', 'Malda']],
  ECR: [['DDU', 'Pt. Deen Dayal Upadhyaya'], ['DHN', 'Dhanbad'], ['DNR', 'Danapur'], ['SPJ', 'Samastipur']],
  NCR: [['PRYJ', 'Prayagraj'], ['AGC', 'Agra'], ['JHS', 'Jhansi']],
  WCR: [['BPL', 'Bhopal'], ['KOTA', 'Kota'], ['JBP', 'Jabalpur']],
  SCR: [['SC', 'Secunderabad'], ['BZA', 'Vijayawada'], ['GTL', 'Guntakal']],
};

export const DIVISIONS: DivisionRow[] = Object.entries(DIVISIONS_BY_ZONE).flatMap(([zone_code, list]) =>
  list.map(([div_code, name]) => ({ div_code, zone_code, name: `${name} Division` })),
);

const ZONE_OF_DIV = new Map(DIVISIONS.map((d) => [d.div_code, d.zone_code]));

export function zoneOfDivision(div: string): string {
  const z = ZONE_OF_DIV.get(div);
  if (!z) throw new Error(`unknown division ${div}`);
  return z;
}

/** division -> 'CODE:Name' list of stations it administers. */
const STATIONS_BY_DIV: Record<string, string[]> = {
  DLI: ['NDLS:New Delhi', 'DLI:Delhi Jn', 'NZM:Hazrat Nizamuddin', 'DEE:Delhi Sarai Rohilla', 'ANVT:Anand Vihar Terminal', 'GZB:Ghaziabad', 'PNP:Panipat Jn'],
  UMB: ['UMB:Ambala Cantt Jn', 'CDG:Chandigarh', 'KLK:Kalka', 'SRE:Saharanpur Jn'],
  FZR: ['FZR:Firozpur Cantt', 'ASR:Amritsar Jn', 'JUC:Jalandhar City', 'LDH:Ludhiana Jn', 'JAT:Jammu Tawi', 'SVDK:Shri Mata Vaishno Devi Katra'],
  LKO: ['LKO:Lucknow Charbagh', 'BSB:Varanasi Jn', 'FD:Ayodhya Cantt', 'RBL:Rae Bareli Jn'],
  MB: ['MB:Moradabad', 'BE:Bareilly', 'DDN:Dehradun', 'HW:Haridwar Jn'],
  BB: ['CSMT:Chhatrapati Shivaji Maharaj Terminus', 'LTT:Lokmanya Tilak Terminus', 'DR:Dadar', 'TNA:Thane', 'KYN:Kalyan Jn', 'IGP:Igatpuri'],
  BSL: ['BSL:Bhusaval Jn', 'NK:Nashik Road', 'MMR:Manmad Jn', 'JL:Jalgaon Jn', 'AK:Akola Jn', 'BD:Badnera Jn'],
  NGP: ['NGP:Nagpur Jn', 'WR:Wardha Jn', 'BPQ:Balharshah', 'BTL:Betul'],
  PUNE: ['PUNE:Pune Jn', 'LNL:Lonavala', 'KOP:Chhatrapati Shahu Maharaj Terminus Kolhapur', 'STR:Satara'],
  SUR: ['SUR:Solapur', 'DD:Daund Jn', 'KWV:Kurduwadi Jn', 'KLBG:Kalaburagi', 'WADI:Wadi Jn'],
  BCT: ['MMCT:Mumbai Central', 'BCT:Mumbai Central (Local)', 'BDTS:Bandra Terminus', 'BVI:Borivali', 'ST:Surat', 'VAPI:Vapi', 'BL:Valsad'],
  ADI: ['ADI:Ahmedabad Jn', 'MSH:Mahesana Jn', 'PNU:Palanpur Jn', 'GIMB:Gandhidham Jn', 'SBIB:Sabarmati'],
  BRC: ['BRC:Vadodara Jn', 'ANND:Anand Jn', 'BH:Bharuch Jn', 'GDA:Godhra Jn'],
  RTM: ['RTM:Ratlam Jn', 'UJN:Ujjain Jn', 'INDB:Indore Jn', 'NAD:Nagda Jn', 'DHD:Dahod'],
  RJT: ['RJT:Rajkot Jn', 'JAM:Jamnagar', 'OKHA:Okha', 'SUNR:Surendranagar Jn'],
  MAS: ['MAS:MGR Chennai Central', 'MS:Chennai Egmore', 'TBM:Tambaram', 'AJJ:Arakkonam Jn', 'KPD:Katpadi Jn', 'JTJ:Jolarpettai Jn', 'GDR:Gudur Jn'],
  MDU: ['MDU:Madurai Jn', 'DG:Dindigul Jn', 'TEN:Tirunelveli Jn', 'RMM:Rameswaram'],
  SA: ['SA:Salem Jn', 'ED:Erode Jn', 'CBE:Coimbatore Jn', 'TUP:Tiruppur'],
  TPJ: ['TPJ:Tiruchchirappalli Jn', 'TJ:Thanjavur Jn', 'VM:Villupuram Jn', 'MV:Mayiladuthurai Jn'],
  TVC: ['TVC:Thiruvananthapuram Central', 'ERS:Ernakulam Jn', 'KTYM:Kottayam', 'QLN:Kollam Jn', 'TCR:Thrissur', 'CAPE:Kanniyakumari'],
  PGT: ['PGT:Palakkad Jn', 'CLT:Kozhikode', 'SRR:Shoranur Jn', 'MAQ:Mangaluru Central', 'CAN:Kannur'],
  HWH: ['HWH:Howrah Jn', 'BWN:Barddhaman Jn', 'BDC:Bandel Jn'],
  SDAH: ['SDAH:Sealdah', 'KOAA:Kolkata', 'NH:Naihati Jn'],
  ASN: ['ASN:Asansol Jn', 'DGR:Durgapur', 'JSME:Jasidih Jn'],
  MLDT: ['MLDT:Malda Town', 'NFK:New Farakka Jn', 'BHW:Bhagalpur'],
  DDU: ['DDU:Pt. Deen Dayal Upadhyaya Jn', 'GAYA:Gaya Jn', 'SSM:Sasaram Jn', 'BXR:Buxar'],
  DHN: ['DHN:Dhanbad Jn', 'GMO:Gomoh Jn', 'KQR:Koderma Jn', 'PNME:Parasnath'],
  DNR: ['PNBE:Patna Jn', 'RJPB:Rajendranagar Terminal', 'ARA:Ara Jn', 'DNR:Danapur'],
  SPJ: ['SPJ:Samastipur Jn', 'DBG:Darbhanga Jn', 'MFP:Muzaffarpur Jn'],
  PRYJ: ['PRYJ:Prayagraj Jn', 'CNB:Kanpur Central', 'ETW:Etawah Jn', 'TDL:Tundla Jn', 'ALJN:Aligarh Jn'],
  AGC: ['AGC:Agra Cantt', 'MTJ:Mathura Jn', 'DHO:Dholpur'],
  JHS: ['JHS:Virangana Lakshmibai Jhansi Jn', 'GWL:Gwalior Jn', 'LAR:Lalitpur Jn'],
  BPL: ['BPL:Bhopal Jn', 'RKMP:Rani Kamlapati', 'ET:Itarsi Jn', 'BINA:Bina Jn', 'VDS:Vidisha'],
  KOTA: ['KOTA:Kota Jn', 'SWM:Sawai Madhopur Jn', 'BYN:Bayana Jn', 'RMA:Ramganj Mandi'],
  JBP: ['JBP:Jabalpur', 'KTE:Katni Jn', 'STA:Satna'],
  SC: ['SC:Secunderabad Jn', 'KZJ:Kazipet Jn', 'WL:Warangal', 'BPA:Begumpet', 'RDM:Ramagundam'],
  BZA: ['BZA:Vijayawada Jn', 'OGL:Ongole', 'NLR:Nellore', 'KMT:Khammam'],
  GTL: ['GTL:Guntakal Jn', 'RU:Renigunta Jn', 'TPTY:Tirupati', 'ATP:Anantapur'],
};

export const STATIONS: StationRow[] = Object.entries(STATIONS_BY_DIV).flatMap(([div_code, list]) =>
  list.map((entry) => {
    const [station_code, name] = entry.split(':') as [string, string];
    return { station_code, name, zone_code: zoneOfDivision(div_code), div_code };
  }),
);

const STATION_NAMES = new Map(STATIONS.map((s) => [s.station_code, s.name]));

export function stationName(code: string): string {
  const n = STATION_NAMES.get(code);
  if (!n) throw new Error(`unknown station ${code}`);
  return n;
}

/**
 * Crew (TTE) lobbies: at least two per division, named after the station they sit at. DLI's main lobby is
 * NDLS (New Delhi); a lobby code may differ from its station code (e.g. a second lobby at the same station).
 */
const LOBBIES_BY_DIV: Record<string, string[]> = {
  DLI: ['NDLS:NDLS', 'DEE:DEE', 'DLI:DLI', 'NZM:NZM'],
  UMB: ['UMB:UMB', 'CDG:CDG'],
  FZR: ['FZR:FZR', 'ASR:ASR', 'JAT:JAT'],
  LKO: ['LKO:LKO', 'BSB:BSB'],
  MB: ['MB:MB', 'DDN:DDN'],
  BB: ['CSMT:CSMT', 'LTT:LTT', 'KYN:KYN'],
  BSL: ['BSL:BSL', 'NK:NK'],
  NGP: ['NGP:NGP', 'BPQ:BPQ'],
  PUNE: ['PUNE:PUNE', 'KOP:KOP'],
  SUR: ['SUR:SUR', 'DD:DD'],
  BCT: ['MMCT:MMCT', 'BDTS:BDTS', 'ST:ST'],
  ADI: ['ADI:ADI', 'GIMB:GIMB'],
  BRC: ['BRC:BRC', 'GDA:GDA'],
  RTM: ['RTM:RTM', 'INDB:INDB'],
  RJT: ['RJT:RJT', 'OKHA:OKHA'],
  MAS: ['MAS:MAS', 'MS:MS', 'KPD:KPD'],
  MDU: ['MDU:MDU', 'TEN:TEN'],
  SA: ['SA:SA', 'CBE:CBE'],
  TPJ: ['TPJ:TPJ', 'VM:VM'],
  TVC: ['TVC:TVC', 'ERS:ERS'],
  PGT: ['PGT:PGT', 'MAQ:MAQ'],
  HWH: ['HWH:HWH', 'BWN:BWN'],
  SDAH: ['SDAH:SDAH', 'KOAA:KOAA'],
  ASN: ['ASN:ASN', 'JSME:JSME'],
  MLDT: ['MLDT:MLDT', 'BHW:BHW'],
  DDU: ['DDU:DDU', 'GAYA:GAYA'],
  DHN: ['DHN:DHN', 'GMO:GMO'],
  DNR: ['PNBE:PNBE', 'RJPB:RJPB'],
  SPJ: ['SPJ:SPJ', 'DBG:DBG'],
  PRYJ: ['PRYJ:PRYJ', 'CNB:CNB'],
  AGC: ['AGC:AGC', 'MTJ:MTJ'],
  JHS: ['JHS:JHS', 'GWL:GWL'],
  BPL: ['BPL:BPL', 'ET:ET'],
  KOTA: ['KOTA:KOTA', 'SWM:SWM'],
  JBP: ['JBP:JBP', 'KTE:KTE'],
  SC: ['SC:SC', 'KZJ:KZJ'],
  BZA: ['BZA:BZA', 'NLR:NLR'],
  GTL: ['GTL:GTL', 'RU:RU'],
};

export const LOBBIES: LobbyRow[] = Object.entries(LOBBIES_BY_DIV).flatMap(([div_code, list]) =>
  list.map((entry) => {
    const [lobby_code, station_code] = entry.split(':') as [string, string];
    return {
      lobby_code,
      name: `${stationName(station_code)} TTE Lobby`,
      station_code,
      zone_code: zoneOfDivision(div_code),
      div_code,
    };
  }),
);

export function lobbiesOf(div: string): LobbyRow[] {
  return LOBBIES.filter((l) => l.div_code === div);
}

const ZONE_HQ: Record<string, [string, string]> = {
  NR: ['NRHQ', 'Baroda House, New Delhi'],
  CR: ['CRHQ', 'CSMT, Mumbai'],
  WR: ['WRHQ', 'Churchgate, Mumbai'],
  SR: ['SRHQ', 'Park Town, Chennai'],
  ER: ['ERHQ', 'Fairlie Place, Kolkata'],
  ECR: ['ECRHQ', 'Hajipur'],
  NCR: ['NCRHQ', 'Prayagraj'],
  WCR: ['WCRHQ', 'Jabalpur'],
  SCR: ['SCRHQ', 'Rail Nilayam, Secunderabad'],
};

/** HQ per zone, a zonal commercial office (ZN) per zone, a divisional office (DV) per division, PTS, CTCRB. */
export const OFFICES: OfficeRow[] = [
  ...ZONES.map((z) => {
    const [code, place] = ZONE_HQ[z.zone_code] ?? [`${z.zone_code}HQ`, z.name];
    return { off_code: code, off_type: 'HQ', name: `${z.name} Headquarters, ${place}`, zone_code: z.zone_code, div_code: null };
  }),
  ...ZONES.map((z) => ({
    off_code: `${z.zone_code}ZN`,
    off_type: 'ZN',
    name: `${z.name} Zonal Commercial Office`,
    zone_code: z.zone_code,
    div_code: null,
  })),
  ...DIVISIONS.map((d) => ({
    off_code: `${d.div_code}DV`,
    off_type: 'DV',
    name: `${d.name.replace(' Division', '')} Divisional Commercial Office`,
    zone_code: d.zone_code,
    div_code: d.div_code,
  })),
  { off_code: 'PTS', off_type: 'PTS', name: 'Passenger Ticketing Services (CRIS), New Delhi', zone_code: null, div_code: null },
  { off_code: 'CTCRB', off_type: 'CTCRB', name: 'Chief Ticket Checking, Railway Board', zone_code: null, div_code: null },
];
