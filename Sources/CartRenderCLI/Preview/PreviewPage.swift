import CartRender
import CartRenderCore

/// The page `cartrender preview` serves at `/`: the viewer of the scene's last good render, kept
/// up to date from the server's events without a reload.
///
/// - It listens to `/events` (`EventSource`); each `render` event carries the whole state
///   (``PreviewSession/payload``). Each variant shown is a viewer (``ViewerPage``) in a frame of
///   its own, given the new data with `cartrenderViewer.update`: the frame shown keeps its time,
///   and the viewer keeps its panel, overlays, zoom and scroll (nothing reloads).
/// - Errors of the last save (`#errors`) are listed above the viewers, each as its sentence with
///   its file, line, column and JSON path, while the viewers keep the last good frames; the next
///   good save clears them.
/// - With a `"variants"` matrix, a check box per variant (`#variants`; the first two checked)
///   shows it beside the others; every viewer shown follows the one scrubbed or played, by time.
/// - The time shown is sent to the server (`POST /playhead`, with the token in its header) when
///   it stops changing, so the next save draws that frame first.
/// - `#t=SECONDS` in the address shows that time first.
/// - `#status` says whether the frames are up to date, being updated, or the last good ones
///   under an error; `body[data-generation]` is the number of the last render received.
enum PreviewPage {
    /// The page; `token` is the run's (for the `POST` requests), `scene` the scene's name in the title.
    static func html(scene: String, token: String) -> String {
        let config = Escaping.scriptJSON(.object([("token", .string(token))]))
        return HTMLReport.page(title: "cartrender preview: \(scene)", style: css, body: """
            <header>
            <h1>cartrender preview <span class="scene">\(Escaping.html(scene))</span></h1>
            <p id="status" role="status">connecting…</p>
            <div id="variants" hidden></div>
            </header>
            <section id="errors" role="alert" hidden>
            <h2>The last save does not render: showing the last good frames</h2>
            <ul id="error-list"></ul>
            </section>
            <main id="viewers"></main>
            <script type="application/json" id="preview-data">\(config)</script>
            <script>\(script)</script>

            """)
    }

    static let css = """
    :root{--bg:#f2f2f7;--card:#fff;--ink:#1c1c1e;--mute:#6e6e73;--line:#d1d1d6;--bad:#d70015;--badbg:#fff0f0}
    *{box-sizing:border-box}[hidden]{display:none!important}
    body{margin:0;font:14px/1.45 system-ui,-apple-system,"Inter",sans-serif;background:var(--bg);color:var(--ink)}
    header{display:flex;flex-wrap:wrap;gap:4px 16px;align-items:baseline;padding:8px 20px 4px}
    h1{font-size:18px;margin:0}.scene{font-weight:400;color:var(--mute);font-family:ui-monospace,monospace;font-size:14px}
    #status{margin:0;color:var(--mute)}#variants{display:flex;gap:10px;flex-wrap:wrap}
    #errors{margin:6px 20px;padding:8px 14px;border:1px solid var(--bad);border-radius:8px;background:var(--badbg)}
    #errors h2{font-size:14px;margin:0 0 4px;color:var(--bad)}#error-list{margin:0;padding-left:18px}
    #error-list code{font-family:ui-monospace,monospace}.where{color:var(--mute)}
    main{display:flex;gap:8px;padding:0 12px 8px}
    main iframe{flex:1 1 0;min-width:0;height:calc(100vh - 56px);border:0;border-radius:10px;background:var(--card)}
    body.failing main iframe{height:calc(100vh - 150px)}
    :root{color-scheme:light dark}
    @media (prefers-color-scheme:dark){:root{--bg:#000;--card:#1c1c1e;--ink:#f2f2f7;--mute:#98989f;--line:#3a3a3c;--bad:#ff6961;--badbg:#3a1010}}
    """

    static let script = #"""
    (function(){
      var $=function(id){return document.getElementById(id)};
      var token=JSON.parse($('preview-data').textContent).token;
      var viewers={}, checks={}, latest=null, time=0, syncing=false, reportTimer=0;
      function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!=null)e.textContent=text;return e}
      function ready(f){return f.contentWindow&&f.contentWindow.cartrenderViewer&&f.ready}
      function report(t){
        clearTimeout(reportTimer);
        reportTimer=setTimeout(function(){
          fetch('/playhead?t='+t,{method:'POST',headers:{'X-Cartrender-Token':token}}).catch(function(){});
        },150);
      }
      function follow(from,t){
        if(syncing)return;
        syncing=true;time=t;
        Object.keys(viewers).forEach(function(n){var f=viewers[n];if(f!==from&&ready(f))f.contentWindow.cartrenderViewer.seek(t)});
        syncing=false;report(t);
      }
      function data(name){var v=latest&&latest.variants.find(function(v){return v.name===name});return v?v.data:null}
      function open(name){
        var f=el('iframe');f.title=name?'viewer of variant '+name:'viewer';f.setAttribute('data-variant',name);
        f.addEventListener('load',function(){
          var cv=f.contentWindow.cartrenderViewer;if(!cv)return;
          f.ready=true;var d=data(name);if(d)cv.update(d);
          cv.seek(time);cv.onshow=function(t){follow(f,t)};
        });
        f.src='/viewer?variant='+encodeURIComponent(name);
        viewers[name]=f;
        var order=latest.variants.map(function(v){return v.name});
        var next=order.slice(order.indexOf(name)+1).map(function(n){return viewers[n]}).filter(Boolean)[0]||null;
        $('viewers').insertBefore(f,next);
      }
      function close(name){var f=viewers[name];if(f){f.remove();delete viewers[name]}}
      function showErrors(errors){
        var list=$('error-list');list.textContent='';
        errors.forEach(function(e){
          var li=el('li');
          if(e.line!=null){
            li.appendChild(el('code','where',e.file+':'+e.line+':'+e.column));
            li.appendChild(document.createTextNode(' line '+e.line+', column '+e.column+(e.path?', at '+e.path:'')+': '));
            li.appendChild(el('span','message',e.message));
          }else{
            li.appendChild(el('span','message',e.sentence));
          }
          li.setAttribute('data-sentence',e.sentence);
          list.appendChild(li);
        });
        $('errors').hidden=!errors.length;document.body.classList.toggle('failing',errors.length>0);
      }
      function apply(s){
        if(!s.variants)return;
        latest=s;
        showErrors(s.errors);
        var many=s.variants.length>1, box=$('variants');box.hidden=!many;
        s.variants.forEach(function(v,i){
          if(many&&!checks[v.name]){
            var label=el('label'), c=el('input');c.type='checkbox';c.checked=i<2;c.value=v.name;
            c.addEventListener('change',function(){c.checked?open(v.name):close(v.name)});
            label.appendChild(c);label.appendChild(document.createTextNode(' '+v.name));box.appendChild(label);checks[v.name]=c;
          }
          var wanted=many?checks[v.name].checked:true;
          if(wanted&&!viewers[v.name])open(v.name);
          else if(wanted&&ready(viewers[v.name]))viewers[v.name].contentWindow.cartrenderViewer.update(v.data);
        });
        Object.keys(viewers).forEach(function(n){if(!s.variants.some(function(v){return v.name===n}))close(n)});
        $('status').textContent=(s.errors.length?'the last save does not render':s.complete?'up to date':'updating…')+' · render '+s.generation;
        document.body.setAttribute('data-generation',String(s.generation));
        document.body.setAttribute('data-complete',String(s.complete));
      }
      // #t=SECONDS: the time to show first (a link to a moment of the scene).
      var start=/^#t=(\d+(?:\.\d+)?)$/.exec(location.hash);if(start)time=Number(start[1]);
      var events=new EventSource('/events');
      events.addEventListener('render',function(e){apply(JSON.parse(e.data))});
      events.addEventListener('error',function(){$('status').textContent='not connected: is cartrender preview still running?'});
    })();
    """#
}
