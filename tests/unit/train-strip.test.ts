import { describe, expect, it } from 'vitest';
import { pickTrain, positionParts, stripView, todayIso } from '../../src/client/features/train-strip/strip';
import { parseRunningDetails, YET_TO_START, type RunningDetails } from '../../src/shared/running-details';

const names = ['NDLS', 'MTJ', 'AGC', 'GWL', 'JHS', 'BPL', 'ET', 'NGP'];
function details(highlight: number | null, position: Partial<RunningDetails['trainCurrentPosition'] & object>): RunningDetails {
  return {
    vStationList: names.map((n, i) => ({ stationName: n, STA: '10:00', STD: '10:05', ETA: '10:10', ETD: '10:15', isHighlighted: i === highlight })),
    trainCurrentPosition: { nextPTTStationName: '', currentPosition: '', lastStationName: '', ...position },
  };
}
const shown = (d: RunningDetails | null) => stripView(d)?.stations.map((s) => `${s.gapBefore ? '…' : ''}${s.row.stationName}${s.current ? '*' : ''}`);

describe('train strip view', () => {
  it('shows the first, the stations around the current one, and the last', () => {
    const d = details(4, { currentPosition: 'Departed from JHS', lastStationName: 'JHS', nextPTTStationName: 'BPL' });
    expect(shown(d)).toEqual(['NDLS', '…GWL', 'JHS*', 'BPL', '…NGP']);
  });

  it('highlights the first station while yet to start from its source', () => {
    const d = details(null, { currentPosition: YET_TO_START, nextPTTStationName: 'NDLS' });
    expect(shown(d)).toEqual(['NDLS*', 'MTJ', '…NGP']);
    expect(stripView(d)?.notStarted).toBe(true);
  });

  it('highlights the last station when the train has finished', () => {
    const d = details(null, { currentPosition: 'Arrived at its destination NGP', lastStationName: 'NGP', nextPTTStationName: '' });
    expect(shown(d)).toEqual(['NDLS', '…ET', 'NGP*']);
    expect(stripView(d)?.finished).toBe(true);
  });

  it('finds the current station by name when nothing is highlighted', () => {
    const d = details(null, { currentPosition: 'Departed from MTJ', lastStationName: 'MTJ', nextPTTStationName: 'AGC' });
    expect(shown(d)).toEqual(['NDLS', 'MTJ*', 'AGC', '…NGP']);
  });

  it('is cleared (null) for an empty list, no data, or a malformed response', () => {
    expect(stripView({ vStationList: [], trainCurrentPosition: null })).toBeNull();
    expect(stripView(null)).toBeNull();
    expect(parseRunningDetails({ vStationList: 'x' })).toBeNull();
    expect(parseRunningDetails({ vStationList: [{ stationName: 1 }] })).toBeNull();
    expect(parseRunningDetails(null)).toBeNull();
  });

  it('parses the response shape', () => {
    const d = parseRunningDetails({
      vStationList: [{ stationName: 'A', STA: null, STD: '10:00', ETA: null, ETD: '10:00', isHighlighted: true }],
      trainCurrentPosition: { nextPTTStationName: 'A', currentPosition: YET_TO_START, lastStationName: '' },
    });
    expect(d?.vStationList[0]?.isHighlighted).toBe(true);
  });
});

describe('train choice', () => {
  it('defaults to the first train and keeps a stored choice that is still in the list', () => {
    expect(pickTrain(['12952', '12301'], null)).toBe('12952');
    expect(pickTrain(['12952', '12301'], '12301')).toBe('12301');
    expect(pickTrain(['12952', '12301'], '99999')).toBe('12952');
    expect(pickTrain([], '12301')).toBeNull();
  });

  it('asks for today in ISO form', () => {
    expect(todayIso(new Date(2025, 2, 9, 23, 59))).toBe('2025-03-09');
  });
});

describe('the position sentence in parts (said in the interface language)', () => {
  it('reads the wordings the running-details call answers, and nothing else', () => {
    expect(positionParts('Departed from Bhopal Jn (BPL) at 14:51, running 6 min late')).toEqual({ kind: 'departed', station: 'Bhopal Jn (BPL)', time: '14:51', lateMin: 6 });
    expect(positionParts('Arrived at Jhansi (JHS) at 9:05, running on time')).toEqual({ kind: 'arrived', station: 'Jhansi (JHS)', time: '9:05', lateMin: 0 });
    expect(positionParts('Arrived at its destination Rani Kamlapati (RKMP) at 14:56, running 6 min late')).toEqual({
      kind: 'arrivedDestination',
      station: 'Rani Kamlapati (RKMP)',
      time: '14:56',
      lateMin: 6,
    });
    expect(positionParts(YET_TO_START)).toEqual({ kind: 'notStarted' });
    expect(positionParts('Somewhere near Itarsi')).toBeNull();
  });
});
