import CartRenderCore

/// The viewer of a render, `DIR/index.html`: one self-contained page (inline CSS and
/// JavaScript, no network) over the frames of its directory, written by `render --viewer`
/// (``ViewerSink``) and by `cartrender view DIR` from the same manifest, with the same bytes.
///
/// What the page has:
/// - the frame (`frame_NNNN.png`, else `.svg`, by relative path) with a scrubber
///   (`<input type=range>` over the positions of every frame in the manifest), play / pause at the
///   render's speed or at ¼ of it, ← → to step, Home / End, and the frame's index and time (s);
/// - a panel with that frame's `state` as the manifest has it (tables for lists of objects such
///   as flights and rows, values that changed since the previous frame marked), and the event
///   list with the events up to this frame's time marked as past and those since the previous
///   frame as current;
/// - Fit (the default: the frame within the window) or 1:1 (`Z`: one image pixel on one device
///   pixel, panned by scrolling or dragging), light or dark as the system is (`prefers-color-scheme`);
/// - overlays: those the screens draw (``ViewerOverlays``: the shop's flight arcs and
///   centers, in screen points, in an SVG whose view box is the screen in points), and an onion
///   skin of the previous frame at 45 % opacity;
/// - for a render with only an animation (no frame files): the animation itself, a video
///   (`animation.webm`, `.mp4`) seeked by the scrubber, else the animated image.
///
/// The script sets `window.cartrenderViewer`, for a page that holds the viewer in a frame
/// (`cartrender preview`, ``PreviewPage``): `update(data)` shows new data of the same shape at
/// the time shown (no reload), `seek(t)` shows the frame at `t` s, `time()` is the time shown,
/// and `onshow(t)`, when set, is called with the time of every frame shown.
///
/// The manifest's data is embedded as JSON in a `<script type="application/json">`, every `<`
/// written as `\u003c` so no string can end the element, so the page works from `file://`.
/// Only what the page shows is embedded: frame indices, times, files and states, the events, the
/// canvas and the animation file names (no checksums, no software), so the bytes depend only on
/// the frames and their order.
package enum ViewerPage {
    /// The page for `manifest`'s frames, events and animations.
    /// - Throws: `EncodingError` when an event cannot be encoded (never for a manifest that was read).
    package static func html(for manifest: Manifest) throws -> String {
        let (head, tail) = try page(around: manifest, frames: manifest.frames.count)
        return head + manifest.frames.map(entry).joined(separator: ",") + tail
    }

    /// The page without its frames' entries, for writing it piece by piece (``ViewerSink``):
    /// `head`, then each frame's ``entry(_:)`` in order with `,` between them, then `tail` is
    /// the page ``html(for:)`` makes. The frames of `manifest` are not used.
    /// - Parameter frames: how many frames the page shows (its title says).
    /// - Throws: as ``html(for:)``.
    static func page(around manifest: Manifest, frames count: Int) throws -> (head: String, tail: String) {
        var header = manifest
        header.frames = []
        let json = Escaping.scriptJSON(try data(for: header))
        // `frames` comes before every member that holds text of the scene (events): the first match is it.
        let emptyFrames = json.range(of: "\"frames\":[]")!
        let title = "cartrender viewer: \(count) frame\(count == 1 ? "" : "s"), \(manifest.width)×\(manifest.height) px"
        let page = document(title: title, json: "\u{0}")
        let slot = page.range(of: "\u{0}")!
        return (String(page[..<slot.lowerBound]) + json[..<emptyFrames.upperBound].dropLast(),
                "]" + json[emptyFrames.upperBound...] + page[slot.upperBound...])
    }

    /// One frame's entry in the embedded data: `{"index", "time", "file" (PNG, else SVG, else
    /// null), "state"}`, compact, every `<` written `\u003c`.
    static func entry(_ frame: Manifest.Frame) -> String {
        Escaping.scriptJSON(frameData(frame))
    }

    private static func frameData(_ frame: Manifest.Frame) -> JSONValue {
        let file = frameExtensions.lazy.compactMap { ext in frame.files.first { $0.name.hasSuffix("." + ext) } }.first
        return .object([("index", .int(frame.index)), ("time", .num(frame.time)),
                        ("file", file.map { .string($0.name) } ?? .null), ("state", frame.state)])
    }

    /// The page around its embedded data.
    private static func document(title: String, json: String) -> String {
        HTMLReport.page(title: title, style: css, body: """
            \(body)
            <script type="application/json" id="viewer-data">\(json)</script>
            <script>\(script)</script>

            """)
    }

    /// The formats the page can show, best first (``OutputFormat/viewer``).
    private static let shown = OutputFormat.all.compactMap { f in f.viewer.map { (format: f, use: $0) } }.sorted { $0.use.preference > $1.use.preference }

    /// The extensions of the frame files the page shows, best first: `png`, then `svg`.
    static let frameExtensions = shown.compactMap(\.format.frameExtension)

    /// The animations the page can show, best first: videos seek exactly, images only play
    /// (`animation.webm`, `animation.mp4`, `animation.png`, `animation.webp`, `animation.gif`).
    static let animationPreference = shown.compactMap(\.format.animationFileName)

    /// The script's pattern of the animations it shows as a video: `/\.(webm|mp4)$/`.
    static let videoPattern = "/\\.(" + shown.filter { $0.use.kind == .video }.compactMap { $0.format.animationFileName?.split(separator: ".").last }.joined(separator: "|") + ")$/"

    /// The embedded data: `{"fps", "scale", "size": {"width", "height"} (px), "duration" (s),
    /// "frameCount", "frames": [{"index", "time", "file" (or null), "state"}], "events",
    /// "animations": [file names, best first]}`.
    package static func data(for manifest: Manifest) throws -> JSONValue {
        let frames = manifest.frames.map(frameData)
        let outputs = Set(manifest.outputs.map(\.name))
        let animations = animationPreference.filter(outputs.contains).map { JSONValue.string($0) }
        return .object([
            ("fps", .int(manifest.fps)), ("scale", .num(manifest.scale)),
            ("size", .object([("width", .int(manifest.width)), ("height", .int(manifest.height))])),
            ("duration", .num(manifest.duration)), ("frameCount", .int(manifest.frameCount)),
            ("frames", .array(frames)), ("events", try JSONValue(encoding: manifest.events)),
            ("animations", .array(animations)),
        ])
    }

    /// The `src` of the page's two `<img>` until its script sets the frame's file (HTML requires a
    /// non-empty `src`, and the page is written before its frames are known): a transparent 1×1 GIF.
    static let placeholder = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"

    static let body = """
    <header>
    <h1>cartrender viewer</h1>
    <p class="meta" id="meta"></p>
    </header>
    <main>
    <section class="view" id="view">
    <div class="pan" id="pan">
    <div class="stage" id="stage">
    <img id="frame" alt="frame" src="\(placeholder)">
    <img id="onion-image" alt="previous frame" src="\(placeholder)" hidden>
    <svg id="overlay" xmlns="http://www.w3.org/2000/svg" aria-hidden="true"></svg>
    </div>
    </div>
    <div class="controls">
    <button type="button" id="first" title="First frame (Home)">⏮</button>
    <button type="button" id="back" title="Previous frame (←)">◀︎</button>
    <button type="button" id="play" title="Play / pause (space)">Play</button>
    <button type="button" id="forward" title="Next frame (→)">▶︎</button>
    <button type="button" id="last" title="Last frame (End)">⏭</button>
    <label><input type="radio" name="speed" id="speed-1" value="1" checked> 1×</label>
    <label><input type="radio" name="speed" id="speed-quarter" value="0.25"> ¼×</label>
    <span class="readout">frame <b id="frame-index"></b> · <b id="frame-time"></b> s · <span id="position"></span></span>
    </div>
    <input type="range" id="scrubber" min="0" max="0" value="0" aria-label="Frame">
    <div class="controls">
    <label><input type="checkbox" id="arcs"> flight arc paths</label>
    <label><input type="checkbox" id="onion"> onion skin (previous frame)</label>
    <button type="button" id="zoom" aria-pressed="false" title="Fit the window, or one image pixel on one screen pixel (Z; scroll or drag to pan)">1:1</button>
    <span class="note" id="note"></span>
    </div>
    </section>
    <aside>
    <h2>State</h2>
    <div id="state"></div>
    <h2>Events</h2>
    <ol id="events"></ol>
    </aside>
    </main>
    <noscript><p>The viewer needs JavaScript; the frames are the frame_NNNN files beside this page.</p></noscript>
    """

    static let css = """
    :root{--bg:#f2f2f7;--card:#fff;--ink:#1c1c1e;--mute:#6e6e73;--line:#d1d1d6;--accent:#5856d6;--now:#ff9500;--arc:#ff2d55}
    *{box-sizing:border-box}[hidden]{display:none!important}body{margin:0;font:14px/1.45 system-ui,-apple-system,"Inter",sans-serif;background:var(--bg);color:var(--ink)}
    header{padding:12px 20px 0}h1{font-size:20px;margin:0}h2{font-size:14px;margin:12px 0 4px;color:var(--mute);text-transform:uppercase;letter-spacing:.04em}
    .meta,.note{color:var(--mute);margin:2px 0}
    main{display:flex;gap:16px;padding:10px 20px 20px;align-items:flex-start}
    .view{flex:0 1 auto;min-width:0;background:var(--card);border-radius:10px;padding:12px}
    aside{flex:1 1 360px;min-width:300px;max-height:calc(100vh - 70px);overflow:auto;background:var(--card);border-radius:10px;padding:0 12px 12px}
    .stage{position:relative;display:inline-block;line-height:0;background:repeating-conic-gradient(#e5e5ea 0 25%,#fff 0 50%) 0 0/16px 16px;border:1px solid var(--line)}
    .stage img,.stage video{display:block;height:calc(100vh - 210px);min-height:320px;width:auto;max-width:100%}
    .pan{max-width:100%;line-height:0}
    .view.actual .pan{overflow:auto;max-height:calc(100vh - 150px);cursor:grab;-webkit-overflow-scrolling:touch;overscroll-behavior:contain}
    .view.actual .pan.dragging{cursor:grabbing}
    .view.actual .stage img,.view.actual .stage video{height:auto;min-height:0;max-width:none;max-height:none}
    #zoom[aria-pressed=true]{background:var(--ink);color:var(--card);border-color:var(--ink)}
    #onion-image{position:absolute;left:0;top:0;width:100%;height:100%;opacity:.45;pointer-events:none}
    #overlay{position:absolute;left:0;top:0;width:100%;height:100%;pointer-events:none}
    .controls{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin-top:8px}
    button{font:inherit;min-width:36px;padding:3px 10px;border:1px solid var(--line);border-radius:6px;background:var(--card);color:var(--ink);cursor:pointer}
    button:hover{border-color:var(--accent)}#play.playing{background:var(--accent);color:#fff;border-color:var(--accent)}
    .readout{margin-left:auto;font-variant-numeric:tabular-nums}
    #scrubber{display:block;width:100%;margin:8px 0 0}
    table{border-collapse:collapse;font-size:12px;font-variant-numeric:tabular-nums;margin:2px 0 6px}
    th,td{border-bottom:1px solid #e5e5ea;padding:2px 8px 2px 0;text-align:left;vertical-align:top}th{color:var(--mute);font-weight:600}
    dl{margin:0;display:grid;grid-template-columns:max-content 1fr;gap:1px 10px;font-size:13px;font-variant-numeric:tabular-nums}
    dt{color:var(--mute)}dd{margin:0}dd dl{font-size:12px}
    .changed{background:#fff3c4;border-radius:3px}.none{color:var(--mute)}
    #events{list-style:none;margin:0;padding:0;font-size:12px;font-variant-numeric:tabular-nums}
    #events li{padding:2px 6px;border-left:3px solid transparent;cursor:pointer;color:var(--mute)}
    #events li.past{color:var(--ink)}#events li.current{border-left-color:var(--now);background:#fff4e5;color:var(--ink);font-weight:600}
    #events li.marker{cursor:default;color:var(--accent);font-weight:600;border-left-color:var(--accent)}
    #events .t{display:inline-block;min-width:58px}#events .k{display:inline-block;min-width:64px;font-weight:600}
    :root{color-scheme:light dark}
    @media (prefers-color-scheme:dark){:root{--bg:#000;--card:#1c1c1e;--ink:#f2f2f7;--mute:#98989f;--line:#3a3a3c;--accent:#7d7aff;--now:#ff9f0a}
    .stage{background:repeating-conic-gradient(#2c2c2e 0 25%,#1c1c1e 0 50%) 0 0/16px 16px}
    th,td{border-bottom-color:#3a3a3c}.changed{background:#5a4a10}#events li.current{background:#3a2a10}}
    @media (max-width:520px){header{padding:10px 10px 0}main{flex-direction:column;padding:8px 10px 14px}
    .view{width:100%;padding:8px}aside{min-width:0;width:100%;max-height:none}.readout{margin-left:0}
    .stage img,.stage video{height:auto;max-height:calc(100vh - 230px);min-height:0}}
    """

    /// The page's script. Times compare with 1 µs of tolerance, as the renderer's (docs/motion-and-look.md, Time and frames).
    static let script = #"""
    (function(){
      var data, frames, fps, eps=1e-6, hasFiles, animation, wPt, hPt, eventItems=[];
      var $=function(id){return document.getElementById(id)};
      var img=$('frame'), onionImg=$('onion-image'), overlay=$('overlay'), scrubber=$('scrubber');
      var stage=$('stage'), pan=$('pan'), zoomButton=$('zoom'), playButton=$('play'), eventsList=$('events'), stateBox=$('state');
      var video=null, pos=0, playing=false, speed=1, startClock=0, startTime=0, timer=0;
      overlay.setAttribute('preserveAspectRatio','none');
      function fmt(v,d){return (Math.round(v*Math.pow(10,d))/Math.pow(10,d)).toFixed(d)}
      function num(v){return typeof v==='number'?String(Math.round(v*1e6)/1e6):String(v)}
      function src(name){return encodeURIComponent(name)}
      // The render's data: set once from the page, and again by cartrenderViewer.update (preview).
      function load(d){
        data=d;frames=d.frames;fps=d.fps;
        hasFiles=frames.some(function(f){return f.file});
        if(animation===undefined)animation=hasFiles?null:(d.animations[0]||null);
        wPt=d.size.width/d.scale;hPt=d.size.height/d.scale;
        overlay.setAttribute('viewBox','0 0 '+wPt+' '+hPt);
        $('meta').textContent=frames.length+' of '+d.frameCount+' frames · '+d.size.width+'×'+d.size.height+' px ('+fmt(wPt,0)+'×'+fmt(hPt,0)+' pt at '+num(d.scale)+'×) · '+fps+' fps · '+num(d.duration)+' s'+(animation?' · showing '+animation:'');
        scrubber.max=String(Math.max(0,frames.length-1));
        eventsList.textContent='';
        eventItems=d.events.map(eventItem);
      }
      load(JSON.parse(document.getElementById('viewer-data').textContent));

      if(animation){
        img.remove();
        if(\#(videoPattern).test(animation)){
          video=document.createElement('video');video.id='animation';video.muted=true;video.loop=true;video.playsInline=true;video.preload='auto';
          video.src=src(animation);stage.insertBefore(video,stage.firstChild);
        }else{
          var a=document.createElement('img');a.id='animation';a.alt='animation';a.src=src(animation);stage.insertBefore(a,stage.firstChild);
          $('note').textContent=animation+' plays on its own; the state follows the scrubber.';
        }
        $('onion').disabled=true;
      }else if(!hasFiles){
        $('note').textContent='This render wrote no frame files or animation to show.';
      }

    \#(ViewerOverlays.script)

      function flat(v,path,out){
        if(v&&typeof v==='object'){Object.keys(v).forEach(function(k){flat(v[k],path+(Array.isArray(v)?'['+k+']':(path?'.':'')+k),out)})}
        else out[path]=v;
        return out;
      }
      function cell(v,path,prev){
        var el;
        if(Array.isArray(v)&&v.length&&v.every(function(x){return x&&typeof x==='object'&&!Array.isArray(x)})){
          el=document.createElement('table');
          var cols=[];v.forEach(function(r){Object.keys(r).forEach(function(k){if(cols.indexOf(k)<0)cols.push(k)})});
          var tr=el.insertRow();cols.forEach(function(k){var th=document.createElement('th');th.textContent=k;tr.appendChild(th)});
          v.forEach(function(r,i){var row=el.insertRow();cols.forEach(function(k){var td=row.insertCell();td.appendChild(cell(r[k],path+'['+i+'].'+k,prev))})});
        }else if(v&&typeof v==='object'){
          var keys=Object.keys(v);
          if(!keys.length){el=document.createElement('span');el.className='none';el.textContent=Array.isArray(v)?'none':'—';return el}
          if(keys.every(function(k){return v[k]===null||typeof v[k]!=='object'})&&keys.length<=3&&!Array.isArray(v)){
            el=document.createElement('span');
            keys.forEach(function(k,i){var s=document.createElement('span');s.textContent=(i?' ':'')+k+' '+(v[k]===null?'—':num(v[k]));mark(s,path+'.'+k,v[k],prev);el.appendChild(s)});
            return el;
          }
          el=document.createElement('dl');
          keys.forEach(function(k){
            var dt=document.createElement('dt');dt.textContent=Array.isArray(v)?'['+k+']':k;
            var dd=document.createElement('dd');dd.appendChild(cell(v[k],path+(Array.isArray(v)?'['+k+']':(path?'.':'')+k),prev));
            el.appendChild(dt);el.appendChild(dd);
          });
        }else{
          el=document.createElement('span');el.textContent=v===null?'—':num(v);mark(el,path,v,prev);
        }
        return el;
      }
      function mark(el,path,v,prev){if(prev&&path in prev&&prev[path]!==v)el.className='changed';el.setAttribute('data-path',path)}

      function eventItem(e){
        var li=document.createElement('li');
        var rest=Object.keys(e).filter(function(k){return k!=='time'&&k!=='kind'}).map(function(k){
          var v=e[k];return k+' '+(v&&typeof v==='object'?'('+Object.keys(v).map(function(q){return num(v[q])}).join(', ')+')':num(v));
        }).join(' · ');
        [['t',fmt(e.time,3)+' s'],['k',e.kind],['r',rest]].forEach(function(part){
          var span=document.createElement('span');span.className=part[0];span.textContent=part[1];li.appendChild(span);
        });
        li.addEventListener('click',function(){pause();var j=frames.findIndex(function(f){return f.time>=e.time-eps});show(j<0?frames.length-1:j)});
        eventsList.appendChild(li);return li;
      }
      var marker=document.createElement('li');marker.className='marker';

      function show(p,fromVideo){
        if(!frames.length)return;
        pos=Math.max(0,Math.min(frames.length-1,p));
        var f=frames[pos], prevF=pos>0?frames[pos-1]:null;
        scrubber.value=String(pos);
        $('frame-index').textContent=String(f.index);
        $('frame-time').textContent=fmt(f.time,3);
        $('position').textContent=(pos+1)+' / '+frames.length;
        if(f.file){img.src=src(f.file);img.alt='frame '+f.index}
        var onion=$('onion').checked&&prevF&&prevF.file;
        onionImg.hidden=!onion;if(onion)onionImg.src=src(prevF.file);
        if(video&&!fromVideo)video.currentTime=f.time+0.5/fps;
        var prevState=prevF?flat(prevF.state,'',{}):null;
        stateBox.textContent='';stateBox.appendChild(cell(f.state,'',prevState));
        var since=prevF?prevF.time:-Infinity, placed=false;
        eventItems.forEach(function(li,i){
          var t=data.events[i].time;
          li.className=t<=f.time+eps?(t>since+eps?'past current':'past'):'future';
          if(!placed&&t>f.time+eps){eventsList.insertBefore(marker,li);placed=true}
        });
        if(!placed)eventsList.appendChild(marker);
        marker.textContent='▶ frame '+f.index+' at '+fmt(f.time,3)+' s';
        drawOverlay();
        for(var k=1;k<=4&&pos+k<frames.length;k++){var n=frames[pos+k];if(n.file)(new Image()).src=src(n.file)}
        writeHash();
        if(viewer.onshow)viewer.onshow(f.time);
      }
      // For a page that holds this one (cartrender preview): new data keeps the time shown.
      var viewer=window.cartrenderViewer={onshow:null,
        time:function(){return frames.length?frames[pos].time:0},
        seek:function(t){if(frames.length&&positionAt(t)!==pos)show(positionAt(t))},
        update:function(d){var t=viewer.time();load(d);show(positionAt(t))}};
      function writeHash(){
        if(history.replaceState)history.replaceState(null,'','#frame='+frames[pos].index+($('arcs').checked?'&arcs':'')+($('onion').checked?'&onion':''));
      }
      function positionAt(t){
        var lo=0;while(lo+1<frames.length&&frames[lo+1].time<=t+eps)lo++;return lo;
      }
      function follow(t){var p=positionAt(t);if(p!==pos)show(p,true)}
      function tick(){
        if(!playing)return;
        if(video){follow(video.currentTime);timer=requestAnimationFrame(tick);return}
        var t=startTime+(performance.now()-startClock)/1000*speed;
        var end=frames[frames.length-1].time;
        if(t>end+0.5/fps){startTime=frames[0].time;startClock=performance.now();t=startTime}
        follow(t);
        timer=requestAnimationFrame(tick);
      }
      function play(){
        if(playing||frames.length<2)return;
        playing=true;playButton.textContent='Pause';playButton.classList.add('playing');
        if(pos===frames.length-1)show(0);
        startTime=frames[pos].time;startClock=performance.now();
        if(video){video.playbackRate=speed;video.currentTime=startTime;video.play()}
        timer=requestAnimationFrame(tick);
      }
      function pause(){
        if(!playing)return;
        playing=false;playButton.textContent='Play';playButton.classList.remove('playing');
        cancelAnimationFrame(timer);if(video)video.pause();
      }
      function step(d){pause();show(pos+d)}
      playButton.addEventListener('click',function(){playing?pause():play()});
      $('first').addEventListener('click',function(){pause();show(0)});
      $('last').addEventListener('click',function(){pause();show(frames.length-1)});
      $('back').addEventListener('click',function(){step(-1)});
      $('forward').addEventListener('click',function(){step(1)});
      scrubber.addEventListener('input',function(){pause();show(Number(scrubber.value))});
      [$('speed-1'),$('speed-quarter')].forEach(function(r){r.addEventListener('change',function(){
        var was=playing;pause();speed=Number(r.value);if(was)play();
      })});
      // 1:1: the image at its natural size in device pixels (CSS px ÷ devicePixelRatio), in a
      // scrolling box panned by the scroll bars, wheel, touch or dragging with the mouse.
      function shown(){return $('animation')||img}
      function zoom(on){
        zoomButton.setAttribute('aria-pressed',String(on));$('view').classList.toggle('actual',on);
        var el=shown(), r=window.devicePixelRatio||1;
        el.style.width=on?(data.size.width/r)+'px':'';
      }
      zoomButton.addEventListener('click',function(){zoom(zoomButton.getAttribute('aria-pressed')!=='true')});
      var drag=null;
      pan.addEventListener('mousedown',function(e){
        if(!$('view').classList.contains('actual')||e.button!==0)return;
        drag={x:e.clientX,y:e.clientY,left:pan.scrollLeft,top:pan.scrollTop};pan.classList.add('dragging');e.preventDefault();
      });
      window.addEventListener('mousemove',function(e){if(drag){pan.scrollLeft=drag.left-(e.clientX-drag.x);pan.scrollTop=drag.top-(e.clientY-drag.y)}});
      window.addEventListener('mouseup',function(){if(drag){drag=null;pan.classList.remove('dragging')}});
      $('arcs').addEventListener('change',function(){drawOverlay();writeHash()});
      $('onion').addEventListener('change',function(){show(pos)});
      document.addEventListener('keydown',function(e){
        var t=e.target, tag=t&&t.tagName;
        if(tag==='INPUT'&&t.type!=='range'&&e.key===' ')return;
        if(tag==='BUTTON'&&(e.key===' '||e.key==='Enter'))return;
        if(e.key==='ArrowRight'){step(1)}else if(e.key==='ArrowLeft'){step(-1)}
        else if(e.key==='Home'){pause();show(0)}else if(e.key==='End'){pause();show(frames.length-1)}
        else if(e.key===' '){playing?pause():play()}
        else if((e.key==='z'||e.key==='Z')&&!e.ctrlKey&&!e.metaKey&&!e.altKey){zoom(zoomButton.getAttribute('aria-pressed')!=='true')}else return;
        e.preventDefault();
      });
      // #frame=N opens frame N; &arcs and &onion turn those overlays on (links to a view).
      var m=/^#frame=(\d+)((?:&(?:arcs|onion))*)$/.exec(location.hash), start=0;
      if(m){
        var j=frames.findIndex(function(f){return f.index===Number(m[1])});if(j>=0)start=j;
        if(/&arcs/.test(m[2])&&!$('arcs').disabled)$('arcs').checked=true;
        if(/&onion/.test(m[2]))$('onion').checked=true;
      }
      show(start);
    })();
    """#
}
