const PNG = require('png-js');
const fs = require('fs');
const dec = (f) => new Promise((r) => { const p = new PNG(fs.readFileSync(f)); p.decode((px) => r({ px, w: p.width, h: p.height })); });
(async () => {
  const [a, b] = await Promise.all([dec(process.argv[2]), dec(process.argv[3])]);
  let n = 0, minx = 1e9, miny = 1e9, maxx = -1, maxy = -1;
  for (let i = 0; i < a.px.length; i += 4) {
    if (a.px[i] !== b.px[i] || a.px[i+1] !== b.px[i+1] || a.px[i+2] !== b.px[i+2]) { n++; const p = i/4, x = p % a.w, y = Math.floor(p / a.w); minx = Math.min(minx,x); maxx=Math.max(maxx,x); miny=Math.min(miny,y); maxy=Math.max(maxy,y); }
  }
  console.log(`${a.w}x${a.h} differing pixels: ${n}` + (n ? ` in box x ${minx}-${maxx}, y ${miny}-${maxy}` : ''));
})();
