<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="terrain" tilewidth="16" tileheight="16" tilecount="6" columns="6">
 <image source="terrain.png" width="96" height="16"/>
 <tile id="0">
  <properties>
   <property name="terrain" value="grass"/>
  </properties>
 </tile>
 <tile id="1">
  <properties>
   <property name="cost" type="int" value="5"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="wall" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="terrain" value="lava"/>
   <property name="cost" type="int" value="40"/>
  </properties>
 </tile>
 <tile id="4">
  <properties>
   <property name="terrain" value="tree"/>
   <property name="wall" type="bool" value="true"/>
   <property name="glyph" value="T"/>
  </properties>
 </tile>
 <tile id="5" type="decoration"/>
</tileset>
