/**
 * Main-line corridors as 'CODE km' lists (distance from the first station); '*' marks the stops premium
 * trains (Rajdhani, Shatabdi, Duronto, Vande Bharat) also make. A train runs along part of a corridor,
 * in either direction. Distances are close to the real ones.
 */
export const CORRIDORS: Record<string, string> = {
  // Delhi - Mumbai via Kota, Ratlam, Vadodara (Western Railway main line)
  DLI_BCT: 'NDLS 0*,MTJ 141,SWM 362,KOTA 465*,RMA 560,NAD 660,RTM 731*,DHD 891,GDA 965,BRC 1039*,BH 1110,ST 1169*,VAPI 1268,BVI 1355*,MMCT 1384*',
  // Delhi - Howrah via Kanpur, Prayagraj, Dhanbad
  DLI_HWH: 'NDLS 0*,ALJN 126,TDL 204,ETW 296,CNB 440*,PRYJ 634*,DDU 787*,SSM 887,GAYA 990*,KQR 1067,DHN 1187*,ASN 1245,DGR 1285,BWN 1340,HWH 1447*',
  DLI_SDAH: 'NDLS 0*,CNB 440*,PRYJ 634,DDU 787*,GAYA 990,DHN 1187*,ASN 1245*,BWN 1340,NH 1410,SDAH 1453*',
  DLI_RJPB: 'NDLS 0*,ALJN 126,TDL 204,ETW 296,CNB 440*,PRYJ 634*,DDU 787*,BXR 881,ARA 950,DNR 985,PNBE 995*,RJPB 1001*',
  // Grand Trunk route: Delhi - Chennai via Bhopal, Nagpur, Vijayawada
  DLI_MAS: 'NDLS 0*,MTJ 141,AGC 195*,DHO 247,GWL 313*,JHS 410*,LAR 500,BINA 563,VDS 617,BPL 701*,RKMP 707*,ET 793,BTL 900,NGP 1091*,WR 1170,BPQ 1298,RDM 1420,KZJ 1532,WL 1542*,KMT 1650,BZA 1752*,OGL 1893,NLR 2008,GDR 2046,MAS 2182*',
  // Mumbai - Punjab via Bhusaval, Itarsi, Jhansi, Delhi
  CSMT_FZR: 'CSMT 0*,DR 9,KYN 54*,IGP 137,NK 187*,MMR 260,JL 420*,BSL 444*,BTL 647,ET 752*,BPL 844*,BINA 982,JHS 1135*,GWL 1233,AGC 1351,MTJ 1405,NDLS 1546*,PNP 1635,UMB 1745,LDH 1857,JUC 1913,FZR 1990',
  CSMT_SC: 'CSMT 0*,DR 9*,TNA 34*,KYN 54*,LNL 128,PUNE 192*,DD 268,KWV 350,SUR 455*,KLBG 567,WADI 604*,BPA 784,SC 790*',
  DLI_SVDK: 'NDLS 0*,PNP 89,UMB 199*,LDH 313*,JUC 370,JAT 577*,SVDK 655*',
  NDLS_KLK: 'NDLS 0*,PNP 89*,UMB 199*,CDG 244*,KLK 268*',
  NDLS_LKO: 'NDLS 0*,GZB 25*,ALJN 126*,TDL 204,ETW 296,CNB 440*,LKO 512*',
  BCT_ADI: 'MMCT 0*,BVI 29*,VAPI 168*,BL 198,ST 263*,BH 322*,BRC 392*,ANND 427,ADI 491*',
  // Chennai - Kerala via Salem, Coimbatore, Palakkad
  MAS_TVC: 'MAS 0*,AJJ 68*,KPD 130*,JTJ 213,SA 335*,ED 396*,TUP 446,CBE 496*,PGT 544*,TCR 646*,ERS 720*,KTYM 778,QLN 877*,TVC 942*',
  MAS_MAQ: 'MAS 0*,AJJ 68*,KPD 130*,JTJ 213,SA 335*,ED 396*,TUP 446,CBE 496*,PGT 544*,SRR 580*,CLT 666*,CAN 755*,MAQ 888*',
  MS_CAPE: 'MS 0*,TBM 25*,VM 159*,MV 259,TJ 310,TPJ 337*,DG 430*,MDU 493*,TEN 653*,CAPE 740*',
  // Delhi - Dehradun via Moradabad, Haridwar
  NDLS_DDN: 'NDLS 0*,GZB 25*,MB 189*,HW 262*,DDN 314*',
};

export interface CorridorStop {
  code: string;
  km: number;
  major: boolean;
}

export function corridorStops(key: string): CorridorStop[] {
  const text = CORRIDORS[key];
  if (!text) throw new Error(`unknown corridor ${key}`);
  return text.split(',').map((part) => {
    const [code, kmText] = part.split(' ') as [string, string];
    return { code, km: Number.parseInt(kmText, 10), major: kmText.endsWith('*') };
  });
}
