import CartRender
import CartRenderCore
import Foundation

/// What `cartrender review` adds to the report's `index.html` when it serves it (the file on
/// disk stays the static report): a bar at the top with "Accept all" and a status line, and an
/// Accept button in the heading of each frame's section (`section.frame` whose `id` is the frame's
/// file name without `.png`) that the page may accept one by one.
///
/// A button posts `/accept?frame=NAME` (`frame=all` for Accept all) with the run's token in the
/// `X-Cartrender-Token` header, shows the server's one-line answer while it works or when it
/// fails, and reloads the page when the baseline was rewritten and verified again.
enum ReviewPage {
    /// The report page with the review controls inserted before its last `</body>` (at the end
    /// when it has none).
    /// - Parameters:
    ///   - html: the report's `index.html`.
    ///   - token: the run's token (hex digits).
    ///   - frames: file names of the frames with an Accept button each (failing, not extra).
    ///   - failing: how many frames do not pass (extra ones included), for the bar and Accept all.
    static func inject(into html: String, token: String, frames: [String], failing: Int) -> String {
        let block = controls(token: token, frames: frames, failing: failing)
        guard let end = html.range(of: "</body>", options: .backwards) else { return html + block }
        return html.replacingCharacters(in: end.lowerBound..<end.lowerBound, with: block)
    }

    static func controls(token: String, frames: [String], failing: Int) -> String {
        let config: JSONValue = .object([("token", .string(token)), ("frames", .array(frames.map { .string($0) })), ("failing", .int(failing))])
        let data = Escaping.scriptJSON(config)
        return "<style>\(css)</style>\n<script>(function(review){\(script)})(\(data));</script>\n"
    }

    static let css = """
    .review-bar{position:sticky;top:0;z-index:10;display:flex;min-height:40px;gap:12px;align-items:center;padding:8px 20px;background:#1c1c1e;color:#fff;font-size:14px}
    .review-bar button,button.accept{font:inherit;font-size:13px;border:0;border-radius:6px;padding:3px 12px;background:#34c759;color:#fff;cursor:pointer}
    button.accept{margin-left:10px;vertical-align:middle}.review-bar button:disabled,button.accept:disabled{opacity:.5;cursor:default}
    .review-status{color:#d1d1d6}
    """

    static let script = """
    var bar=document.createElement('div');bar.className='review-bar';bar.id='review-bar';
    var title=document.createElement('strong');title.textContent='cartrender review';bar.appendChild(title);
    var all=null;
    if(review.failing>0){
      all=document.createElement('button');all.id='accept-all';all.textContent='Accept all';
      all.title='Rewrite every failing baseline frame (as verify --record failed), then verify again';
      all.addEventListener('click',function(){accept('all')});bar.appendChild(all);
    }
    var status=document.createElement('span');status.className='review-status';status.id='review-status';status.setAttribute('role','status');
    status.textContent=review.failing>0?(review.failing+' frame'+(review.failing===1?'':'s')+' to review'):'Every frame passes: nothing to accept';
    bar.appendChild(status);
    document.body.insertBefore(bar,document.body.firstChild);
    var buttons=all?[all]:[];
    review.frames.forEach(function(name){
      var section=document.getElementById(name.replace(/\\.png$/,''));if(!section)return;
      var b=document.createElement('button');b.className='accept';b.textContent='Accept';b.setAttribute('data-accept',name);
      b.title='Rewrite baseline '+name+' with the actual frame (as verify --record failed), then verify again';
      b.addEventListener('click',function(){accept(name)});
      (section.querySelector('h2')||section).appendChild(b);buttons.push(b);
    });
    function accept(frame){
      buttons.forEach(function(b){b.disabled=true});
      status.textContent=(frame==='all'?'Accepting every failing frame':'Accepting '+frame)+', then verifying again…';
      fetch('/accept?frame='+encodeURIComponent(frame),{method:'POST',headers:{'X-Cartrender-Token':review.token}})
        .then(function(r){return r.text().then(function(t){
          if(r.ok){location.reload();return}
          status.textContent=t.trim();buttons.forEach(function(b){b.disabled=false});
        })},function(e){status.textContent='The review server did not answer: '+e;buttons.forEach(function(b){b.disabled=false})});
    }
    """
}
