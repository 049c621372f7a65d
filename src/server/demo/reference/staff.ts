import { Rng } from '../prng';
import { mobileNumber, personName } from '../names';
import { LOBBIES, lobbiesOf } from './geography';
import type { SeedScale, Train } from './trains';
import type { DeviceStatus } from '../../../shared/devices';

/** TTEs and HHT devices are reference data: a pure function of the scale (through the train catalogue). */
export interface TteRow {
  tte_id: string;
  name: string;
  designation: string;
  mobile_no: string;
  lobby_code: string;
  zone_code: string;
  div_code: string;
}

export interface DeviceRow {
  device_id: string;
  serial_no: string;
  imei: string;
  make: string;
  model: string;
  app_version: string;
  status: DeviceStatus;
  zone_code: string;
  div_code: string;
  lobby_code: string;
  assigned_tte_id: string | null;
  registered_on: string;
  last_sync_at: string | null;
  version: number;
  updated_at: string;
  updated_by: string | null;
}

export interface Staff {
  ttes: TteRow[];
  devices: DeviceRow[];
  /** TTEs of each division, in a fixed order: the beat roster draws from this list. */
  ttesByDiv: Map<string, TteRow[]>;
  /** The device a TTE carries on duty (first in-service device assigned), if any. */
  deviceOf: Map<string, string>;
}

const MAKES: [string, string[]][] = [
  ['Analogics', ['AT-HHT 9', 'AT-HHT 11']],
  ['Visiontek', ['VX 520', 'GL 11']],
  ['Linkwell', ['LT-HHT 7']],
  ['Ingenico', ['APOS A8']],
];

function deviceId(seq: number): string {
  return `HHT${String(seq).padStart(5, '0')}`;
}

export function buildStaff(scale: SeedScale, trains: Train[]): Staff {
  const rng = new Rng(`${scale}|staff`);
  const trainsPerDiv = new Map<string, number>();
  for (const t of trains) trainsPerDiv.set(t.row.div_code, (trainsPerDiv.get(t.row.div_code) ?? 0) + 1);

  const ttes: TteRow[] = [];
  const devices: DeviceRow[] = [];
  const ttesByDiv = new Map<string, TteRow[]>();
  const deviceOf = new Map<string, string>();
  let deviceSeq = 0;
  for (const lobby of LOBBIES) {
    const lobbies = lobbiesOf(lobby.div_code).length;
    // Up to three beats per train per day, and a TTE works about every other day: size the roster for that.
    const need = Math.ceil(((trainsPerDiv.get(lobby.div_code) ?? 0) * 3 * 2.5) / lobbies);
    const count = Math.max(4, need + 2);
    const lobbyTtes: TteRow[] = [];
    for (let i = 1; i <= count; i++) {
      const gender = rng.chance(0.2) ? 'F' : 'M';
      const tte: TteRow = {
        tte_id: `${lobby.lobby_code}${String(i).padStart(3, '0')}`,
        name: personName(rng, gender),
        designation: rng.weighted([['TTE', 50], ['Sr. TTE', 30], ['CTI', 15], ['TS', 5]] as const),
        mobile_no: mobileNumber(rng),
        lobby_code: lobby.lobby_code,
        zone_code: lobby.zone_code,
        div_code: lobby.div_code,
      };
      lobbyTtes.push(tte);
      const list = ttesByDiv.get(lobby.div_code) ?? [];
      list.push(tte);
      ttesByDiv.set(lobby.div_code, list);
    }
    ttes.push(...lobbyTtes);

    // A device pool a little smaller than the roster: most TTEs hold one, a few two, some none.
    const pool = Math.ceil(count * 0.9) + 2;
    let next = 0;
    for (let i = 0; i < pool; i++) {
      deviceSeq++;
      const [make, models] = rng.pick(MAKES);
      const status = rng.weighted([['IN_SERVICE', 84], ['UNDER_REPAIR', 8], ['LOST', 4], ['WITHDRAWN', 4]] as const);
      let assigned: string | null = null;
      const holder = lobbyTtes[next];
      if ((status === 'IN_SERVICE' || status === 'LOST') && holder) {
        assigned = holder.tte_id;
        if (status === 'IN_SERVICE' && !deviceOf.has(holder.tte_id)) deviceOf.set(holder.tte_id, deviceId(deviceSeq));
        // A few TTEs hold a second device: the next device goes to the same TTE.
        if (!rng.chance(0.06)) next++;
      }
      const year = rng.int(2019, 2025);
      const registered = `${year}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`;
      let imei = '35';
      for (let k = 0; k < 13; k++) imei += String(rng.int(0, 9));
      devices.push({
        device_id: deviceId(deviceSeq),
        serial_no: `${make.slice(0, 2).toUpperCase()}${year}${String(deviceSeq).padStart(6, '0')}`,
        imei,
        make,
        model: rng.pick(models),
        app_version: rng.weighted([['4.2.1', 55], ['4.1.7', 30], ['3.9.4', 15]] as const),
        status,
        zone_code: lobby.zone_code,
        div_code: lobby.div_code,
        lobby_code: lobby.lobby_code,
        assigned_tte_id: assigned,
        registered_on: registered,
        last_sync_at: null,
        version: 1,
        updated_at: `${registered}T10:00:00.000Z`,
        updated_by: 'seed',
      });
    }
  }
  return { ttes, devices, ttesByDiv, deviceOf };
}
