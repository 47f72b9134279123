import CartRenderCore

/// The overlays the viewer page (``ViewerPage``) draws over the frames of a screen: each
/// screen's part of the page's script, kept here with the page it runs in rather than in
/// CartRenderCore, which knows nothing of pages. A screen without an entry draws no overlay.
enum ViewerOverlays {
    /// Each screen's part of the page's script, by `Screen.name`.
    static let scripts: [String: String] = [ShopContent.name: flightArcs]

    /// The screens' parts in `Screens.all`'s order, a blank line between two: what the page
    /// embeds after its own script.
    static var script: String { Screens.all.compactMap { scripts[$0.name] }.filter { !$0.isEmpty }.joined(separator: "\n\n") }

    /// The shop's flight arcs, rebuilt from the manifest's `launch` events and the flights in
    /// each frame's state: JavaScript run in the viewer page's script once its data is read
    /// (`frames`, `data.events`, `num`, `$`, `overlay` and `pos` are the page's). It makes the arc
    /// path of each flight, from its `launch` event's destination (`FlyTimeline.arcOffset`:
    /// control point (0.35·dx, min(dy, 0) − 120) pt) and any frame of the flight, and
    /// `drawOverlay()`, which the page calls to draw the arcs and the current flight centers
    /// while the "flight arc paths" box is ticked. The box is turned off when the render has no
    /// flight.
    static let flightArcs = #"""
      // Flight arcs (docs/motion-and-look.md, The fly button): center(p) = start + B(p), B the
      // quadratic Bézier from (0,0) to the destination with control (0.35·dx, min(dy,0) − 120);
      // start from any frame of the flight.
      var arcs=[];
      data.events.forEach(function(e){
        if(e.kind!=='launch'||!e.destination)return;
        var d=e.destination, c={x:0.35*d.x,y:Math.min(d.y,0)-120};
        for(var i=0;i<frames.length;i++){
          var fl=(frames[i].state.flights||[]).filter(function(f){return f.id===e.flight})[0];
          if(!fl)continue;
          var p=fl.progress, b={x:2*(1-p)*p*c.x+p*p*d.x,y:2*(1-p)*p*c.y+p*p*d.y};
          var s={x:fl.center.x-b.x,y:fl.center.y-b.y};
          arcs.push({id:e.flight,d:'M'+num(s.x)+' '+num(s.y)+' Q'+num(s.x+c.x)+' '+num(s.y+c.y)+' '+num(s.x+d.x)+' '+num(s.y+d.y)});
          break;
        }
      });
      if(!arcs.length){$('arcs').disabled=true;$('arcs').parentNode.title='No flights in this render';}

      function drawOverlay(){
        var on=$('arcs').checked, svg='';
        if(on){
          arcs.forEach(function(a){svg+='<path class="arc" data-flight="'+a.id+'" d="'+a.d+'" fill="none" stroke="#ff2d55" stroke-width="2" stroke-dasharray="6 4" vector-effect="non-scaling-stroke"/>'});
          (frames[pos].state.flights||[]).forEach(function(f){
            svg+='<circle class="center" cx="'+num(f.center.x)+'" cy="'+num(f.center.y)+'" r="4" fill="#ff2d55" stroke="#fff" stroke-width="1.5" vector-effect="non-scaling-stroke"/>';
          });
        }
        overlay.innerHTML=svg;
      }
    """#
}
