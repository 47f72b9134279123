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
      // Only finite numbers reach the overlay, as attributes of elements built one by one
      // (never markup from the manifest's text).
      function fin(){for(var i=0;i<arguments.length;i++)if(typeof arguments[i]!=='number'||!isFinite(arguments[i]))return false;return true}
      var arcs=[];
      data.events.forEach(function(e){
        if(e.kind!=='launch'||!e.destination)return;
        var d=e.destination;
        if(!fin(d.x,d.y))return;
        var c={x:0.35*d.x,y:Math.min(d.y,0)-120};
        for(var i=0;i<frames.length;i++){
          var fl=(frames[i].state.flights||[]).filter(function(f){return f&&f.id===e.flight})[0];
          if(!fl||!fl.center||!fin(fl.progress,fl.center.x,fl.center.y))continue;
          var p=fl.progress, b={x:2*(1-p)*p*c.x+p*p*d.x,y:2*(1-p)*p*c.y+p*p*d.y};
          var s={x:fl.center.x-b.x,y:fl.center.y-b.y};
          arcs.push({id:String(e.flight),d:'M'+num(s.x)+' '+num(s.y)+' Q'+num(s.x+c.x)+' '+num(s.y+c.y)+' '+num(s.x+d.x)+' '+num(s.y+d.y)});
          break;
        }
      });
      if(!arcs.length){$('arcs').disabled=true;$('arcs').parentNode.title='No flights in this render';}

      function svgElement(name,attributes){
        var el=document.createElementNS('http://www.w3.org/2000/svg',name);
        Object.keys(attributes).forEach(function(k){el.setAttribute(k,attributes[k])});
        return el;
      }
      function drawOverlay(){
        while(overlay.firstChild)overlay.removeChild(overlay.firstChild);
        if(!$('arcs').checked)return;
        var style={fill:'none',stroke:'#ff2d55','stroke-width':'2','stroke-dasharray':'6 4','vector-effect':'non-scaling-stroke'};
        arcs.forEach(function(a){
          var path=svgElement('path',style);path.setAttribute('class','arc');path.setAttribute('data-flight',a.id);path.setAttribute('d',a.d);
          overlay.appendChild(path);
        });
        (frames[pos].state.flights||[]).forEach(function(f){
          if(!f||!f.center||!fin(f.center.x,f.center.y))return;
          overlay.appendChild(svgElement('circle',{'class':'center',cx:num(f.center.x),cy:num(f.center.y),r:'4',fill:'#ff2d55',stroke:'#fff','stroke-width':'1.5','vector-effect':'non-scaling-stroke'}));
        });
      }
    """#
}
