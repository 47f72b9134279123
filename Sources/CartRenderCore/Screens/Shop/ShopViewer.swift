/// The shop screen's part of the viewer page (`cartrender view`, `--viewer`): the flight arcs
/// overlay, rebuilt from the manifest's `launch` events and the flights in each frame's state.
extension ShopContent {
    /// JavaScript run in the viewer page's script once its data is read (`frames`, `data.events`,
    /// `num`, `$`, `overlay` and `pos` are the page's): the arc path of each flight, from its
    /// `launch` event's destination (`FlyTimeline.arcOffset`: control point
    /// (0.35·dx, min(dy, 0) − 120) pt) and any frame of the flight, and `drawOverlay()`, which the
    /// page calls to draw the arcs and the current flight centers while the "flight arc paths" box
    /// is ticked. The box is turned off when the render has no flight.
    public static var viewerScript: String {
        #"""
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
}
